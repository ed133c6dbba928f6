// Every failure the handler can answer with, and the one table that maps each to its HTTP status.
// Bodies are always JSON `{"message": ...}`; nothing returns a stack trace.
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
export class ModelOutputError extends NamedError {}

/** Bedrock failed internally. */
export class ModelFailureError extends NamedError {}

/** A setting is missing or invalid (common/configuration-error.ts, the project's one base class): its message names it and the fix. */
export { ConfigurationError };

type ErrorClass = abstract new (...args: never[]) => Error;

const STATUS_BY_ERROR: ReadonlyArray<readonly [ErrorClass, number]> = [
  [RequestBodyError, 400],
  [ModelThrottledError, 429],
  [ModelTimeoutError, 504],
  [ModelUnavailableError, 503],
  [ModelAccessError, 502],
  [ModelRejectedRequestError, 502],
  [ModelOutputError, 502],
  [ModelFailureError, 502],
  [ConfigurationError, 500],
];

/** Message for failures we did not foresee; the details go to the log, not to the client. */
export const INTERNAL_ERROR_MESSAGE = "Internal error while capturing; see the handler's logs.";

/** The HTTP status for `error`, and whether its message is safe and useful to return. */
export function describeError(error: unknown): { status: number; message: string; expected: boolean } {
  for (const [errorClass, status] of STATUS_BY_ERROR) {
    if (error instanceof errorClass) return { status, message: error.message, expected: true };
  }
  return { status: 500, message: INTERNAL_ERROR_MESSAGE, expected: false };
}
