/**
 * The model behind the handler: one Bedrock Converse call, and the translation of Bedrock's failures into
 * the named errors of voice/errors.ts (with messages that tell the caller or the operator what to do).
 */
import { ConverseCommand, type BedrockRuntimeClient, type ConverseCommandInput } from "@aws-sdk/client-bedrock-runtime";
import {
  ModelAccessError,
  ModelFailureError,
  ModelRejectedRequestError,
  ModelThrottledError,
  ModelTimeoutError,
  ModelUnavailableError,
} from "./errors.ts";

export interface ModelCall {
  system: string;
  userText: string;
  /** `inferenceConfig.maxTokens`: answer plus thinking. */
  maxTokens: number;
  /** Extended-thinking budget; 0 sends no thinking configuration. */
  thinkingBudget: number;
  /** Aborts the call (the handler's deadline). */
  signal: AbortSignal;
}

export interface ModelReply {
  /** The answer's text blocks joined; reasoning blocks are left out. */
  text: string;
  stopReason: string | null;
}

/** What the capture needs from a model; the Bedrock implementation below is the only one in production. */
export interface CaptureModel {
  converse(call: ModelCall): Promise<ModelReply>;
}

export interface BedrockConverseModelOptions {
  client: BedrockRuntimeClient;
  modelId: string;
  region: string;
  /**
   * When the SDK found no credentials: what it did find, as the rest of a sentence (common/aws-credential-sources.ts
   * reads the environment and the profile files). Without it, the message says where credentials come from.
   */
  describeMissingCredentials?: () => string;
}

export class BedrockConverseModel implements CaptureModel {
  readonly #client: BedrockRuntimeClient;
  readonly #modelId: string;
  readonly #region: string;
  readonly #describeMissingCredentials: (() => string) | undefined;

  constructor(options: BedrockConverseModelOptions) {
    this.#client = options.client;
    this.#modelId = options.modelId;
    this.#region = options.region;
    this.#describeMissingCredentials = options.describeMissingCredentials;
  }

  async converse(call: ModelCall): Promise<ModelReply> {
    const input: ConverseCommandInput = {
      modelId: this.#modelId,
      system: [{ text: call.system }],
      messages: [{ role: "user", content: [{ text: call.userText }] }],
      // No temperature: Bedrock rejects one with extended thinking, and the model's default suits every mode.
      inferenceConfig: { maxTokens: call.maxTokens },
    };
    if (call.thinkingBudget > 0) {
      input.additionalModelRequestFields = { thinking: { type: "enabled", budget_tokens: call.thinkingBudget } };
    }
    let output;
    try {
      output = await this.#client.send(new ConverseCommand(input), { abortSignal: call.signal });
    } catch (error) {
      throw this.#translate(error, call.signal);
    }
    const blocks = output.output?.message?.content ?? [];
    const text = blocks.map((block) => (typeof block.text === "string" ? block.text : "")).join("");
    return { text, stopReason: output.stopReason ?? null };
  }

  #translate(error: unknown, signal: AbortSignal): Error {
    const name = error instanceof Error ? error.name : "";
    const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
    const detail = error instanceof Error && error.message ? ` (${error.message})` : "";
    const model = `model ${this.#modelId} in ${this.#region}`;
    if (signal.aborted || name === "AbortError") {
      return new ModelTimeoutError(`The model did not answer in time; try a shorter request or a lower maxTokens/thinkingTokens.`);
    }
    switch (name) {
      case "CredentialsProviderError":
        return new ModelAccessError(
          this.#describeMissingCredentials
            ? `No AWS credentials to call Bedrock in ${this.#region}: ${this.#describeMissingCredentials()}`
            : `No AWS credentials to call Bedrock in ${this.#region}. Operator: give the function a role, or locally set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY.`,
        );
      case "ThrottlingException":
      case "ServiceQuotaExceededException":
        return new ModelThrottledError(`Bedrock is throttling requests to the ${model}; try again in a few seconds.`);
      case "ModelTimeoutException":
        return new ModelTimeoutError(`The ${model} timed out while answering; try again, or lower maxTokens/thinkingTokens.`);
      case "ModelNotReadyException":
        return new ModelUnavailableError(`The ${model} is not ready yet; try again in a minute.`);
      case "ServiceUnavailableException":
        return new ModelUnavailableError(`Bedrock is unavailable for the ${model}; try again shortly.`);
      case "AccessDeniedException":
        return new ModelAccessError(
          `Bedrock denied access to the ${model}. Operator: enable access to this model in the Bedrock console and allow ` +
            `bedrock:InvokeModel on it for the handler's role.`,
        );
      case "ResourceNotFoundException":
        return new ModelAccessError(`The ${model} was not found. Operator: check VOICE_MODEL_ID (the template's ModelId) and the region.`);
      case "ValidationException":
        return new ModelRejectedRequestError(
          `The ${model} rejected the request${detail}. Lower maxTokens or thinkingTokens if you set them; operator: check that ` +
            `VOICE_MODEL_ID supports this mode (deepthink needs extended thinking).`,
        );
    }
    if (status === 429) return new ModelThrottledError(`Bedrock is throttling requests to the ${model}; try again in a few seconds.`);
    if (status === 408) return new ModelTimeoutError(`The ${model} timed out while answering; try again.`);
    if (status === 503) return new ModelUnavailableError(`Bedrock is unavailable for the ${model}; try again shortly.`);
    if (status === undefined) {
      // No HTTP answer at all: the network to Bedrock failed.
      return new ModelUnavailableError(`Could not reach Bedrock in ${this.#region}${detail}; try again shortly.`);
    }
    return new ModelFailureError(`Bedrock failed while running the ${model} (HTTP ${status}); try again.`);
  }
}
