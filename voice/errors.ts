/**
 * Every failure the handler can answer with, and the one table that maps each to its HTTP status and to what
 * the caller reads. Bodies are always JSON `{"message": ...}`; nothing returns a stack trace.
 *
 * A 502 (the model or its setup failed) answers a fixed text per cause. Its error's own message is for the
 * operator and goes to the log only: it can name AWS profiles and the files and home folder they were looked
 * for in, the model id and region, and Bedrock's own words, none of which a caller holding the client token
 * should learn from this API.
 */
import { ConfigurationError } from "../common/configuration-error.ts";
import { NamedError } from "../common/named-error.ts";

/** The request body is wrong; `field` names the offending field. */
export class RequestBodyError extends NamedError {
  readonly field: string | null;
  constructor(field: string | null, message: string) {
    super(message);
    this.field = field;
  }
}

/** Bedrock throttled the call or a quota is used up; the client should try again shortly. */
export class ModelThrottledError extends NamedError {}

/** The model (or our own deadline under the gateway's 29 s limit) ran out of time. */
export class ModelTimeoutError extends NamedError {}

/** The model is not ready, Bedrock is unavailable, or the network to it failed. */
export class ModelUnavailableError extends NamedError {}

/** Access denied or model not found: the operator must fix the deployment (model access, id, IAM). */
export class ModelAccessError extends NamedError {}

/** Bedrock refused the request as invalid for this model (e.g. maxTokens above its limit). */
export class ModelRejectedRequestError extends NamedError {}

/** The model answered, twice, with something that is not the response object. */
export class ModelOutputError extends NamedError {
  /** Whether the last answer stopped at maxTokens: the one cause the caller can fix. */
  readonly cutOff: boolean;
  constructor(message: string, cutOff: boolean) {
    super(message);
    this.cutOff = cutOff;
  }
}

/** Bedrock failed internally. */
export class ModelFailureError extends NamedError {}

/** A setting is missing or invalid (common/configuration-error.ts, the project's one base class): its message names it and the fix. */
export { ConfigurationError };

type ErrorClass = abstract new (...args: never[]) => Error;

/** What a caller reads for a 502, by cause. */
export const callerMessages = {
  modelSetup:
    "The voice service could not use its model: its AWS credentials, model access or model id need the operator's attention (the handler's log says which).",
  modelRejected:
    "The model rejected the request. If you set maxTokens or thinkingTokens, try lower values; otherwise the handler's log says why.",
  modelOutput: "The model's answer was not a valid capture object twice; try again.",
  modelOutputCutOff: "The model's answer was not a valid capture object twice: it was cut off at maxTokens. Send a larger maxTokens.",
  modelFailed: "Bedrock failed while answering; try again.",
} as const;

/** Each error class's status, and for the 502s the fixed text the caller gets instead of the message. */
const answerByError: ReadonlyArray<readonly [ErrorClass, number, ((error: Error) => string)?]> = [
  [RequestBodyError, 400],
  [ModelThrottledError, 429],
  [ModelTimeoutError, 504],
  [ModelUnavailableError, 503],
  [ModelAccessError, 502, () => callerMessages.modelSetup],
  [ModelRejectedRequestError, 502, () => callerMessages.modelRejected],
  [ModelOutputError, 502, (error) => ((error as ModelOutputError).cutOff ? callerMessages.modelOutputCutOff : callerMessages.modelOutput)],
  [ModelFailureError, 502, () => callerMessages.modelFailed],
  [ConfigurationError, 500],
];

/** Message for failures we did not foresee; the details go to the log, not to the client. */
export const internalErrorMessage = "Internal error while capturing; see the handler's logs.";

/**
 * The HTTP status for `error`, what the caller reads (`message`), what the log says (`detail`, the error's own
 * message), and whether the failure was foreseen.
 */
export function describeError(error: unknown): { status: number; message: string; detail: string; expected: boolean } {
  for (const [errorClass, status, callerMessage] of answerByError) {
    if (error instanceof errorClass) {
      return { status, message: callerMessage ? callerMessage(error) : error.message, detail: error.message, expected: true };
    }
  }
  return { status: 500, message: internalErrorMessage, detail: error instanceof Error ? error.message : String(error), expected: false };
}
