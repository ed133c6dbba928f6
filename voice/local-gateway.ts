/**
 * A local stand-in for the deployed API Gateway stage, for `npm run voice` and tests: POST /dev/invoke runs
 * the same authorizer and handler as Lambda, with the gateway's behaviour around them: the stage throttle
 * (token bucket, 10/s burst 20, 429 {"message":"Rate Exceeded."}), the 403 explicit-deny body when the
 * authorizer denies, and 403 "Missing Authentication Token" for any other route.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { readRequestBody, RequestBodyTooLargeError } from "../common/read-request-body.ts";
import { handler as lambdaAuthorizer } from "./authorizer.ts";
import { createClientTokenAuthorizer, type RequestAuthorizer } from "./client-token-authorizer.ts";
import { StaticClientToken } from "./client-token-store.ts";
import { authorizerEvent, invocationContext, proxyEvent, type GatewayRequest } from "./gateway-events.ts";
import { handler as lambdaHandler, type InvocationContext } from "./handler.ts";
import { synchronousStderrLogger, type Logger } from "../common/logger.ts";
import { TokenBucket } from "./token-bucket.ts";
import { readSetting } from "../common/settings/setting.ts";
import { clientTokenParameter, defaultVoiceLocalPort, voiceLocalClientToken } from "../common/settings/voice-variables.ts";

/** API Gateway's body when an authorizer returns a Deny policy. */
export const explicitDenyBody = '{"Message":"User is not authorized to access this resource with an explicit deny"}';
/** The THROTTLED gateway response configured in voice/template.yaml. */
export const throttledBody = '{"message":"Rate Exceeded."}';
/** API Gateway's answer for a route or method the API does not have. */
export const missingRouteBody = '{"message":"Missing Authentication Token"}';

export const localGatewayDefaults = { host: "127.0.0.1", port: defaultVoiceLocalPort, stage: "dev", ratePerSecond: 10, burst: 20 } as const;

const maxBodyBytes = 1_000_000;

export type CaptureHandler = (event: APIGatewayProxyEvent, context: InvocationContext) => Promise<APIGatewayProxyResult>;

export interface LocalGatewayOptions {
  host?: string;
  /** 0 picks a free port (tests). */
  port?: number;
  stage?: string;
  /** Defaults to the token from VOICE_LOCAL_CLIENT_TOKEN, else the Lambda authorizer (parameter store). */
  authorizer?: RequestAuthorizer;
  handler?: CaptureHandler;
  limiter?: TokenBucket;
  log?: Logger;
}

export interface LocalGateway {
  /** e.g. http://127.0.0.1:8787/dev/invoke */
  invokeUrl: string;
  port: number;
  close(): Promise<void>;
}

/** Where the local gateway's authorizer gets the token, and a sentence saying so. */
export function authorizerFromEnvironment(
  env: Record<string, string | undefined> = process.env,
  log: Logger = synchronousStderrLogger("voice-authorizer"),
): {
  authorizer: RequestAuthorizer;
  tokenSource: string;
} {
  const localToken = readSetting(env, voiceLocalClientToken);
  if (localToken) {
    return {
      authorizer: createClientTokenAuthorizer({ tokens: new StaticClientToken(localToken), log }),
      tokenSource: "the one you set in VOICE_LOCAL_CLIENT_TOKEN (not shown here)",
    };
  }
  return {
    authorizer: lambdaAuthorizer,
    tokenSource: `the deployed one, in the SSM parameter ${readSetting(env, clientTokenParameter) ?? "CLIENT_TOKEN_PARAMETER names (not set)"} (not shown here)`,
  };
}

function send(response: http.ServerResponse, status: number, body: string, headers: APIGatewayProxyResult["headers"] = {}): void {
  const values = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
  response.writeHead(status, { "Content-Type": "application/json", ...values });
  response.end(body);
}

function headerRecord(request: http.IncomingMessage): Pick<GatewayRequest, "headers" | "multiValueHeaders"> {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  // rawHeaders keeps the client's spelling of names, as API Gateway does.
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i] ?? "";
    const value = request.rawHeaders[i + 1] ?? "";
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}

/** What one local gateway is made of: its stage's path and the authorizer, handler, throttle and log it runs. */
interface GatewayParts {
  stage: string;
  invokePath: string;
  log: Logger;
  authorize: RequestAuthorizer;
  capture: CaptureHandler;
  limiter: TokenBucket;
}

function gatewayParts(options: LocalGatewayOptions): GatewayParts {
  const stage = options.stage ?? localGatewayDefaults.stage;
  return {
    stage,
    invokePath: `/${stage}/invoke`,
    log: options.log ?? synchronousStderrLogger("voice-local-gateway"),
    authorize: options.authorizer ?? authorizerFromEnvironment().authorizer,
    capture: options.handler ?? lambdaHandler,
    limiter: options.limiter ?? new TokenBucket({ ratePerSecond: localGatewayDefaults.ratePerSecond, burst: localGatewayDefaults.burst }),
  };
}

/** One request, as API Gateway answers it: the route, the throttle, the body's size, the authorizer, then the handler. */
async function answerRequest(parts: GatewayParts, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const path = (request.url ?? "/").split("?")[0];
  const requestId = randomUUID();
  if (path !== parts.invokePath || request.method !== "POST") return send(response, 403, missingRouteBody);
  // The stage throttle applies before the authorizer runs, as in API Gateway.
  if (!parts.limiter.tryTake()) return send(response, 429, throttledBody);

  let body: string;
  try {
    body = (await readRequestBody(request, maxBodyBytes)).toString("utf8");
  } catch (error) {
    // A client that hung up mid-body gets no answer.
    if (!(error instanceof RequestBodyTooLargeError)) return void response.destroy();
    return send(response, 413, '{"message":"Request Too Long"}', { Connection: "close" });
  }
  const gatewayRequest: GatewayRequest = {
    ...headerRecord(request),
    body,
    requestId,
    sourceIp: request.socket.remoteAddress ?? "127.0.0.1",
    stage: parts.stage,
  };
  let principalId: string | undefined;
  try {
    const result = await parts.authorize(authorizerEvent(gatewayRequest));
    if (result.policyDocument.Statement.some((statement) => statement.Effect === "Allow")) principalId = result.principalId;
  } catch (error) {
    // API Gateway's answer when an authorizer fails rather than denies.
    parts.log.error("authorizer_failed", { requestId, error: error instanceof Error ? error.name : String(error) });
    return send(response, 500, '{"message":null}', { "x-amzn-ErrorType": "AuthorizerConfigurationException" });
  }
  if (principalId === undefined) return send(response, 403, explicitDenyBody, { "x-amzn-ErrorType": "AccessDeniedException" });

  try {
    const result = await parts.capture(proxyEvent(gatewayRequest, principalId), invocationContext(requestId));
    send(response, result.statusCode, result.body, result.headers);
  } catch (error) {
    parts.log.error("handler_failed", { requestId, error: error instanceof Error ? error.name : String(error) });
    send(response, 502, '{"message":"Internal server error"}');
  }
}

export async function startLocalGateway(options: LocalGatewayOptions = {}): Promise<LocalGateway> {
  const host = options.host ?? localGatewayDefaults.host;
  const parts = gatewayParts(options);
  const server = http.createServer((request, response) => void answerRequest(parts, request, response));

  await once(server.listen(options.port ?? localGatewayDefaults.port, host), "listening");
  const { port } = server.address() as AddressInfo;
  return {
    invokeUrl: `http://${host}:${port}${parts.invokePath}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
