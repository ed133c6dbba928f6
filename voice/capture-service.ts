/**
 * One capture from validated request to response object: prompt the model, check its answer (one retry),
 * resolve the dates in the text and reconcile them with the model's. Knows nothing of HTTP or Lambda.
 */
import { reconcileDates } from "./date-reconciliation.ts";
import { resolveDates } from "./date-resolution.ts";
import { ModelOutputError } from "./errors.ts";
import type { Logger } from "../common/logger.ts";
import type { CaptureModel } from "./model-client.ts";
import { retryInstruction, systemPromptFor } from "./prompts.ts";
import type { CaptureRequest } from "./capture-request.ts";
import { actionForMode, checkModelAnswer, type CaptureResponse } from "./response-schema.ts";

export interface CaptureServiceOptions {
  model: CaptureModel;
  /** Zone for relative dates when the request names none (VOICE_TIMEZONE). */
  defaultTimeZone: string;
  log: Logger;
  now?: () => Date;
}

/** One malformed answer is retried; a second one is a 502. */
const modelAttempts = 2;

export class CaptureService {
  readonly #model: CaptureModel;
  readonly #defaultTimeZone: string;
  readonly #log: Logger;
  readonly #now: () => Date;

  constructor(options: CaptureServiceOptions) {
    this.#model = options.model;
    this.#defaultTimeZone = options.defaultTimeZone;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
  }

  async capture(request: CaptureRequest, signal: AbortSignal): Promise<CaptureResponse> {
    const now = this.#now();
    const timeZone = request.timeZone ?? this.#defaultTimeZone;
    const system = systemPromptFor(request.mode, now, timeZone);

    let answer: CaptureResponse | null = null;
    let lastProblem = "";
    let lastStopReason: string | null = null;
    for (let attempt = 1; attempt <= modelAttempts && answer === null; attempt += 1) {
      const reply = await this.#model.converse({
        system: attempt === 1 ? system : system + retryInstruction(lastProblem),
        userText: request.text,
        maxTokens: request.maxTokens,
        thinkingBudget: request.thinkingBudget,
        signal,
      });
      const check = checkModelAnswer(reply.text, request.mode);
      if (check.ok) {
        answer = check.answer;
      } else {
        lastProblem = check.problem;
        lastStopReason = reply.stopReason;
        this.#log.warn("model_answer_rejected", { attempt, problem: check.problem, stopReason: reply.stopReason, mode: request.mode });
      }
    }
    if (answer === null) {
      const cutOff = lastStopReason === "max_tokens";
      throw new ModelOutputError(
        `The model's answer was not a valid capture object twice (${lastProblem}).${cutOff ? " The answer was cut off at maxTokens." : ""}`,
        cutOff,
      );
    }

    const resolved = resolveDates({ text: request.text, mode: request.mode, reference: now, timeZone });
    const reconciled = reconcileDates(actionForMode[request.mode], resolved, answer, now.getTime());
    for (const disagreement of reconciled.disagreements) {
      this.#log.warn("model_date_overridden", { ...disagreement, timeZone });
    }
    for (const rejected of reconciled.rejected) {
      this.#log.warn("model_timestamp_rejected", { ...rejected });
    }
    return { ...answer, ...reconciled.dates };
  }
}
