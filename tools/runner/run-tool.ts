/**
 * Runs one tool call: validate the arguments, build the one upstream request, send it, and shape the
 * answer (or, when the arguments call for several requests, send the tool's plan: tools/runner/run-plan.ts).
 * A call a front end has already validated and built (`PreparedCall`) is sent as prepared.
 * Every failure the caller can do something about becomes an error result (`Error: ...`,
 * `isError: true`); nothing here throws to the front end.
 *
 * A successful answer's text is the training log's body, byte for byte, unless the tool reshapes it (`resultText`).
 * It is not parsed: HTTP framing has already refused a body cut off in transit (common/upstream/http-exchange.ts),
 * and what is left to catch is a 2xx that is not the log's JSON at all (a proxy's HTML page, an empty body), which
 * a look at both ends of the text does.
 */
import type { ToolDefinition } from "../definition/tool-definition.ts";
import { requestContextOf, type ToolDeps } from "./tool-deps.ts";
import { errorResult, textResult, upstreamErrorResult, type ToolResult } from "./tool-result.ts";
import { ToolInputError, validateArguments } from "../arguments/validate-arguments.ts";
import { describeRequest, type UpstreamRequest } from "../../common/upstream/upstream-request.ts";
import { sendPlan } from "./run-plan.ts";
import type { PreparedCall } from "./prepared-call.ts";
import { messageOf } from "../../common/named-error.ts";
import { CallCancelledError, UpstreamBodyError, UpstreamError, UpstreamStatusError } from "../../common/upstream/upstream-errors.ts";
import { trainingLogName } from "../../common/upstream/training-log-client.ts";

/** `prepared`: the same call (`args`) as a front end validated and built it; it is not validated again. */
export async function runTool(
  tool: ToolDefinition,
  args: unknown,
  deps: ToolDeps,
  signal?: AbortSignal,
  prepared?: PreparedCall,
): Promise<ToolResult> {
  const started = performance.now();
  let request: UpstreamRequest;
  let validated: Record<string, unknown>;
  try {
    validated = prepared?.args ?? validateArguments(tool.name, tool.parameters, args);
    const plan = await tool.plan?.(validated, { ...requestContextOf(deps, signal), nowMs: deps.now(), given: givenParameters(args) });
    if (plan) {
      const answer = await sendPlan(plan, deps.client, { signal, errorHint: tool.errorHint?.bind(tool), log: deps.log });
      deps.logger.info("tool_call", { tool: tool.name, status: answer.status, requests: answer.requests, ms: elapsed(started) });
      return textResult(answer.text, answer.status);
    }
    request = prepared?.request ?? (await tool.request(validated, requestContextOf(deps, signal)));
  } catch (error) {
    return failure(tool, deps, error, started);
  }
  try {
    const response = await deps.client.send(request, { signal, errorHint: tool.errorHint?.bind(tool) });
    let text: string;
    try {
      if (!isJsonObjectOrArray(response.bodyText)) throw new SyntaxError("not a JSON object or array");
      text = tool.resultText?.(response.bodyText, validated) ?? response.bodyText;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      throw new UpstreamBodyError(
        `${trainingLogName(deps.log)} answered ${describeRequest(request)} with ${response.status}, but the body is not complete JSON ` +
          `(${response.bodyText.length} characters; cut off, or an error page). Nothing was changed by reading it; try again.`,
      );
    }
    deps.logger.info("tool_call", { tool: tool.name, status: response.status, ms: elapsed(started) });
    return textResult(text, response.status);
  } catch (error) {
    return failure(tool, deps, error, started);
  }
}

function failure(tool: ToolDefinition, deps: ToolDeps, error: unknown, started: number): ToolResult {
  if (error instanceof ToolInputError) {
    deps.logger.info("tool_input_rejected", { tool: tool.name, message: error.message });
    return errorResult(error.message);
  }
  if (error instanceof CallCancelledError) {
    // The client withdrew the call (it hung up, or sent notifications/cancelled): nothing failed.
    deps.logger.info("tool_call_cancelled", { tool: tool.name, ms: elapsed(started) });
    return errorResult(error.message);
  }
  if (error instanceof UpstreamError) {
    const status = error instanceof UpstreamStatusError ? error.status : undefined;
    deps.logger.warn("tool_call_failed", { tool: tool.name, kind: error.name, status, ms: elapsed(started), message: error.message });
    return upstreamErrorResult(error);
  }
  // A bug of ours: say so plainly, keep the process up, and log it for the operator.
  deps.logger.error("tool_internal_error", { tool: tool.name, error });
  return errorResult(
    `Internal error in ${tool.name}: ${messageOf(error)}. This is a bug in the fitness tools; please report it.`,
    undefined,
    "InternalError",
  );
}

/** The parameters the caller sent with a value, before defaults are filled in. */
function givenParameters(args: unknown): Set<string> {
  if (typeof args !== "object" || args === null) return new Set();
  return new Set(
    Object.entries(args)
      .filter(([, value]) => value !== undefined)
      .map(([key]) => key),
  );
}

/** Starts with `{` or `[` and ends with the bracket that closes it (JSON whitespace around it allowed). */
function isJsonObjectOrArray(text: string): boolean {
  const first = text.search(/\S/);
  if (first < 0) return false;
  let last = text.length - 1;
  while (last > first && /\s/.test(text[last]!)) last--;
  const open = text[first];
  return (open === "{" && text[last] === "}") || (open === "[" && text[last] === "]");
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
