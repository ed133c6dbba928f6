/**
 * Lambda entry point of the voice capture API (REST proxy integration): body in, capture object out.
 * Runs only after voice/authorizer.ts has allowed the request.
 *
 * The Bedrock client and settings are created once per container, on the first request rather than at
 * import, so a test (or the local gateway) can set the environment before the first call.
 */
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import { missingAwsCredentials } from "../common/aws-credential-sources.ts";
import { synchronousStderrLogger } from "../common/logger.ts";
import { CaptureService } from "./capture-service.ts";
import { describeError } from "./errors.ts";
import { BedrockConverseModel } from "./model-client.ts";
import { parseCaptureRequest } from "./capture-request.ts";
import { readHandlerSettings } from "./settings-from-env.ts";

const log = synchronousStderrLogger("voice-handler");

/** What the handler reads from the Lambda context. */
export type InvocationContext = Pick<Context, "awsRequestId" | "getRemainingTimeInMillis">;

/**
 * The model must answer before API Gateway gives up on the integration (29 s): stop at 27 s, or earlier
 * if the function's own timeout is nearer, so the client gets our JSON 504 rather than the gateway's.
 */
export const modelDeadlineMs = 27_000;
const deadlineMarginMs = 1_500;

let service: CaptureService | undefined;

function captureService(): CaptureService {
  if (!service) {
    const settings = readHandlerSettings();
    const client = new BedrockRuntimeClient({ region: settings.region });
    service = new CaptureService({
      model: new BedrockConverseModel({
        client,
        modelId: settings.modelId,
        region: settings.region,
        describeMissingCredentials: () => missingAwsCredentials(process.env),
      }),
      defaultTimeZone: settings.timeZone,
      log,
    });
  }
  return service;
}

function deadlineMs(context: InvocationContext): number {
  return Math.max(500, Math.min(modelDeadlineMs, context.getRemainingTimeInMillis() - deadlineMarginMs));
}

function jsonResult(statusCode: number, body: unknown): APIGatewayProxyResult {
  return { statusCode, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

export async function handler(event: APIGatewayProxyEvent, context: InvocationContext): Promise<APIGatewayProxyResult> {
  const requestId = context.awsRequestId;
  const started = Date.now();
  try {
    const request = parseCaptureRequest(event.body, event.isBase64Encoded);
    const response = await captureService().capture(request, AbortSignal.timeout(deadlineMs(context)));
    log.info("capture_answered", { requestId, mode: request.mode, status: 200, ms: Date.now() - started });
    return jsonResult(200, response);
  } catch (error) {
    const { status, message, detail, expected } = describeError(error);
    const name = error instanceof Error ? error.name : typeof error;
    if (expected) {
      // The detail, not what the caller read: for a 502 only the log says what went wrong (voice/errors.ts).
      log.warn("capture_failed", { requestId, status, error: name, message: detail, ms: Date.now() - started });
    } else {
      // Unforeseen: full detail for the operator in the log, a plain message for the client.
      log.error("capture_failed_unexpectedly", {
        requestId,
        status,
        error: name,
        message: detail,
        stack: error instanceof Error ? error.stack : undefined,
      });
    }
    return jsonResult(status, { message });
  }
}
