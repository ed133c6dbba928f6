/**
 * A local stand-in for the Lambda function URL, for `npm run hosted` and tests: an HTTP server on
 * loopback that turns each request into the event a function URL sends (payload format 2.0: cookies
 * apart from the headers, the body base64-encoded, the request context with the domain and source IP),
 * invokes the handler, and writes its result back (Set-Cookie from `cookies`, a base64 body decoded),
 * with the function URL's 6 MB limit on request bodies. The handler is the real one: from the sources,
 * or from the bundle the template deploys (`bundle`).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import type { APIGatewayProxyEventV2, APIGatewayProxyResult, Context } from "aws-lambda";
import { readRequestBody, RequestBodyTooLargeError } from "../../common/read-request-body.ts";
import { messageOf } from "../../common/named-error.ts";
import { listenError } from "../http/http-server.ts";

type FunctionUrlHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResult & { cookies?: string[] }>;

export interface LocalFunctionUrl {
  url: string;
  port: number;
  close(): Promise<void>;
}

const maxBodyBytes = 6 * 1024 * 1024;

export async function startLocalFunctionUrl(options: { host?: string; port?: number; bundle?: string }): Promise<LocalFunctionUrl> {
  const module = (await import(options.bundle ? pathToFileURL(options.bundle).href : "./lambda-handler.ts")) as {
    handler: FunctionUrlHandler;
  };
  const handler = module.handler;
  const server = createServer((request, response) => {
    invoke(handler, request, response).catch((error: unknown) => {
      if (error instanceof RequestBodyTooLargeError) {
        response
          .writeHead(413, { "content-type": "application/json", connection: "close" })
          .end(JSON.stringify({ Message: `Request must be smaller than ${maxBodyBytes} bytes for the InvokeFunction operation` }));
        return;
      }
      process.stderr.write(`${JSON.stringify({ level: "error", event: "local_function_url_failed", message: messageOf(error) })}\n`);
      if (!response.headersSent)
        response.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ Message: "Internal Server Error" }));
      else response.destroy();
    });
  });
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(listenError(error, { host, port })));
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function invoke(handler: FunctionUrlHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readRequestBody(request, maxBodyBytes);
  const host = request.headers.host ?? "localhost";
  const url = new URL(request.url ?? "/", `http://${host}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === "cookie") continue;
    headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  const cookies = request.headers.cookie?.split(/;\s*/).filter((cookie) => cookie !== "");
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = key in query ? `${query[key]},${value}` : value;
  const now = new Date();
  const event: APIGatewayProxyEventV2 = {
    version: "2.0",
    routeKey: "$default",
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies && cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(url.search ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: "anonymous",
      apiId: "local",
      domainName: host.split(":")[0] as string,
      domainPrefix: "local",
      http: {
        method: request.method ?? "GET",
        path: url.pathname,
        protocol: "HTTP/1.1",
        sourceIp: request.socket.remoteAddress ?? "127.0.0.1",
        userAgent: request.headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: "$default",
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: body.toString("base64"), isBase64Encoded: true } : { isBase64Encoded: false }),
  };
  const context = {
    awsRequestId: event.requestContext.requestId,
    functionName: "local",
    getRemainingTimeInMillis: () => 30_000,
  } as unknown as Context;
  const result = await handler(event, context);
  const outgoing: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) outgoing[name] = String(value);
  if (result.cookies && result.cookies.length > 0) outgoing["set-cookie"] = result.cookies;
  const payload = result.isBase64Encoded ? Buffer.from(result.body, "base64") : Buffer.from(result.body ?? "", "utf8");
  outgoing["content-length"] = String(payload.length);
  response.writeHead(result.statusCode, outgoing);
  response.end(payload);
}
