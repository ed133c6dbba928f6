/**
 * The MCP endpoint as a web-standard handler: the SDK's `createMcpHandler` for everything (2026-07-28
 * requests, GET and DELETE, every validation answer), except that a 2025-era POST is answered with one
 * JSON body instead of an SSE stream.
 *
 * This is the composition the SDK documents for serving 2025-era traffic one's own way next to its
 * entry (`isLegacyRequest` in front, the same factory behind both legs). Why not the SDK's built-in
 * stateless fallback: it answers every 2025-era request as an SSE stream, which this server never needs
 * (its tools send no progress or notifications before their result), which curl users and this
 * project's documentation read as JSON, and which costs markedly more CPU per call (BENCHMARKS.md). The leg is the SDK's own streamable HTTP transport, stateless, in its JSON response
 * mode; the body is parsed once here and handed to both legs as `parsedBody`.
 *
 * JSON answers leave with a Content-Length: without one, Node's adapter sends them chunked, and the
 * chunk that ends the body costs a second write to the socket per call.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpHandlerRequestOptions,
  type McpRequestContext,
  type Server,
} from "@modelcontextprotocol/server";

export interface McpHttpHandler {
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  close(): Promise<void>;
}

export function createMcpHttpHandler(
  factory: (ctx?: McpRequestContext) => Server,
  options: { maxRequestBodySize: number; onerror: (error: Error) => void },
): McpHttpHandler {
  const entry = createMcpHandler(factory, options);

  const serveLegacyPost = async (request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined): Promise<Response> => {
    const server = factory({ era: "legacy", requestInfo: request, ...(authInfo !== undefined ? { authInfo } : {}) });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const teardown = (): void => {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    };
    // The client hung up: closing the transport aborts the handler's signal, and with it the upstream call.
    request.signal.addEventListener("abort", teardown, { once: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody, ...(authInfo !== undefined ? { authInfo } : {}) });
      // Answered: nothing of this exchange is pending, and both objects are left to the garbage
      // collector. (Closing them would only build the SDK's "connection closed" error, stack and all,
      // for no one: a measurable share of a call's CPU.)
      request.signal.removeEventListener("abort", teardown);
      return response;
    } catch (error) {
      teardown();
      throw error;
    }
  };

  return {
    fetch: async (request, requestOptions) => {
      if (request.method !== "POST") return entry.fetch(request, requestOptions);
      let parsedBody: unknown;
      try {
        const text = await request.text();
        if (text.trim() === "") throw new SyntaxError("empty body");
        parsedBody = JSON.parse(text);
      } catch {
        return Response.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null }, { status: 400 });
      }
      const response = (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: options.maxRequestBodySize }))
        ? await serveLegacyPost(request, parsedBody, requestOptions?.authInfo)
        : await entry.fetch(request, { ...requestOptions, parsedBody });
      return withContentLength(response);
    },
    close: () => entry.close(),
  };
}

/** A JSON answer with its length declared; anything else (an SSE stream) as it is. */
async function withContentLength(response: Response): Promise<Response> {
  if (response.body === null || !response.headers.get("content-type")?.startsWith("application/json")) return response;
  const body = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  headers.set("content-length", String(body.byteLength));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
