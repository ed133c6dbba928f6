/**
 * Sends a tool's request plan (tools/definition/request-plan.ts): one request at a time, each chosen by the plan from
 * the answers before it, then the plan's reduction of them all. The I/O of a several-request answer lives
 * here, beside runTool's single request; a failure throws the same named errors the single request does,
 * and runTool turns them into error results.
 */
import { trainingLogName, type TrainingLog, type TrainingLogClient } from "../../common/upstream/training-log-client.ts";
import type { RequestPlan, UpstreamAnswer } from "../definition/request-plan.ts";
import { describeRequest } from "../../common/upstream/upstream-request.ts";
import { UpstreamBodyError, UpstreamStatusError } from "../../common/upstream/upstream-errors.ts";

export interface PlanOptions {
  signal?: AbortSignal | undefined;
  errorHint?: ((status: number, errorBody: unknown) => string | undefined) | undefined;
  /** The log the client reads, named in an error about an unreadable body (default Strava). */
  log?: TrainingLog | undefined;
}

export interface PlanResult {
  text: string;
  /** The status of the last answer. */
  status: number;
  /** How many requests were sent. */
  requests: number;
}

export async function sendPlan(plan: RequestPlan, client: TrainingLogClient, options: PlanOptions): Promise<PlanResult> {
  const answers: UpstreamAnswer[] = [];
  for (;;) {
    const planned = readable(answers, options.log, () => plan.next(answers));
    if (planned === undefined) break;
    if (answers.length >= plan.maxRequests) {
      throw new Error(`the request plan asked for more than its ${plan.maxRequests} requests`);
    }
    try {
      const response = await client.send(planned.request, options);
      answers.push({ request: planned.request, status: response.status, bodyText: response.bodyText });
    } catch (error) {
      if (!(planned.optional && error instanceof UpstreamStatusError)) throw error;
      answers.push({ request: planned.request, status: error.status, bodyText: error.message, failed: true });
    }
  }
  const text = readable(answers, options.log, () => plan.reduce(answers));
  return { text, status: answers.at(-1)?.status ?? 200, requests: answers.length };
}

/** Runs a step of the plan, naming the request whose body could not be read when it throws a SyntaxError. */
function readable<T>(answers: readonly UpstreamAnswer[], log: TrainingLog | undefined, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const last = answers.at(-1);
    const which = last ? `${describeRequest(last.request)} with ${last.status}` : "a request";
    throw new UpstreamBodyError(
      `${trainingLogName(log ?? "strava")} answered ${which}, but the body is not complete JSON (cut off, or an error page). Nothing was changed by reading it; try again.`,
    );
  }
}
