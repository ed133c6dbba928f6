/**
 * The events API Gateway (REST) sends the two functions, and the slice of the Lambda context the handler
 * reads, built the way the gateway and the runtime build them. The local gateway runs the functions with
 * these, and tests call the handlers with them.
 */
import { randomUUID } from "node:crypto";
import type { APIGatewayEventRequestContextWithAuthorizer, APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from "aws-lambda";
import type { InvocationContext } from "./handler.ts";

/** The function timeout voice/template.yaml sets by default. */
export const functionTimeoutMs = 30_000;

/** One request to POST /{stage}/invoke, as the gateway saw it. */
export interface GatewayRequest {
  /** Header names as the client spelled them; the last value of a repeated header. */
  headers?: Record<string, string>;
  /** Every value of every header; derived from `headers` when not given. */
  multiValueHeaders?: Record<string, string[]>;
  body?: string | null;
  requestId?: string;
  sourceIp?: string;
  stage?: string;
}

const localAccountId = "000000000000";
const localApiId = "local";

function requestContext(request: GatewayRequest): APIGatewayEventRequestContextWithAuthorizer<undefined> {
  const stage = request.stage ?? "dev";
  const headers = request.headers ?? {};
  const userAgent = Object.entries(headers).find(([name]) => name.toLowerCase() === "user-agent")?.[1] ?? null;
  return {
    accountId: localAccountId,
    apiId: localApiId,
    authorizer: undefined,
    protocol: "HTTP/1.1",
    httpMethod: "POST",
    identity: {
      accessKey: null,
      accountId: null,
      apiKey: null,
      apiKeyId: null,
      caller: null,
      clientCert: null,
      cognitoAuthenticationProvider: null,
      cognitoAuthenticationType: null,
      cognitoIdentityId: null,
      cognitoIdentityPoolId: null,
      principalOrgId: null,
      sourceIp: request.sourceIp ?? "127.0.0.1",
      user: null,
      userAgent,
      userArn: null,
    },
    path: `/${stage}/invoke`,
    stage,
    requestId: request.requestId ?? randomUUID(),
    requestTimeEpoch: Date.now(),
    resourceId: "invoke",
    resourcePath: "/invoke",
  };
}

function multiValue(request: GatewayRequest): Record<string, string[]> {
  return request.multiValueHeaders ?? Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name, [value]]));
}

/** The event of the REQUEST authorizer: the request's headers and context, and the method's ARN. */
export function authorizerEvent(request: GatewayRequest): APIGatewayRequestAuthorizerEvent {
  const context = requestContext(request);
  return {
    type: "REQUEST",
    methodArn: `arn:aws:execute-api:local:${localAccountId}:${localApiId}/${context.stage}/POST/invoke`,
    resource: "/invoke",
    path: "/invoke",
    httpMethod: "POST",
    headers: request.headers ?? {},
    multiValueHeaders: multiValue(request),
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: context,
  };
}

/** The proxy integration's event for the handler, after the authorizer allowed `principalId`. */
export function proxyEvent(request: GatewayRequest, principalId = "voice-client"): APIGatewayProxyEvent {
  const context = requestContext(request);
  return {
    body: request.body ?? null,
    headers: request.headers ?? {},
    multiValueHeaders: multiValue(request),
    httpMethod: "POST",
    isBase64Encoded: false,
    path: "/invoke",
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: { ...context, authorizer: { principalId } },
    resource: "/invoke",
  };
}

/** The handler's context: its request id and the time left before the function times out. */
export function invocationContext(requestId: string = randomUUID(), timeoutMs: number = functionTimeoutMs): InvocationContext {
  const deadline = Date.now() + timeoutMs;
  return { awsRequestId: requestId, getRemainingTimeInMillis: () => deadline - Date.now() };
}
