/**
 * POST /mcp: the streamable HTTP transport's request side, stateless and in JSON response mode.
 *
 * The checks and their answers follow the SDK's own `StreamableHTTPServerTransport` (406 without an
 * Accept of both application/json and text/event-stream, 415 without a JSON Content-Type, 413 over the
 * body limit, 400 for bad JSON, bad JSON-RPC, oversized batches or an unsupported MCP-Protocol-Version),
 * so any client that works with an SDK server works here. A POST of notifications only is answered 202;
 * otherwise the body is the JSON-RPC response (an array for a batch). No Mcp-Session-Id is ever issued.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCNotification,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../tools/logger.ts";
import { maxRequestBodyBytes, readRequestBody } from "./read-request-body.ts";
import { sendJson, sendJsonRpcError } from "./json-rpc-reply.ts";
import type { StatelessHttpTransport } from "./stateless-http-transport.ts";

/** The SDK's bound on messages in one batch. */
export const maxBatchMessages = 100;

export interface McpPostHandlerOptions {
  transport: StatelessHttpTransport;
  logger: Logger;
  maxBodyBytes?: number;
}

export function createMcpPostHandler(options: McpPostHandlerOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const { transport, logger } = options;
  const maxBodyBytes = options.maxBodyBytes ?? maxRequestBodyBytes;

  return async (request, response) => {
    const accept = request.headers.accept;
    // Accept is a list: a substring test is what the SDK's transport does.
    if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) {
      sendJsonRpcError(response, 406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
      return;
    }
    if (!isJsonContentType(request.headers["content-type"])) {
      sendJsonRpcError(response, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
      return;
    }
    const body = await readRequestBody(request, maxBodyBytes);
    if (!body.ok) {
      if (body.tooLarge) {
        // The rest of the body is not read, so this connection cannot carry another request.
        sendJsonRpcError(
          response,
          413,
          -32000,
          `Payload Too Large: the request body must not exceed ${maxBodyBytes} bytes (${(maxBodyBytes / 1_048_576).toFixed(0)} MiB); ` +
            "create_upload takes files up to 25 MB (about 35 MB as base64).",
          { connection: "close" },
        );
      } else {
        logger.debug("mcp_body_read_failed", { error: body.error });
        sendJsonRpcError(response, 400, -32000, `Bad Request: the request body could not be read (${body.error.message}).`);
      }
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      sendJsonRpcError(response, 400, ErrorCode.ParseError, "Parse error: Invalid JSON");
      return;
    }
    const isBatch = Array.isArray(parsed);
    const messages: unknown[] = isBatch ? (parsed as unknown[]) : [parsed];
    if (isBatch && (messages.length === 0 || messages.length > maxBatchMessages)) {
      sendJsonRpcError(response, 400, ErrorCode.InvalidRequest, `Invalid Request: a batch must hold 1 to ${maxBatchMessages} messages`);
      return;
    }

    const requests: JSONRPCRequest[] = [];
    const notifications: JSONRPCNotification[] = [];
    let initialize = false;
    for (const message of messages) {
      // The SDK's own guards: exactly what its Server accepts, so every request gets an answer.
      if (isJSONRPCRequest(message)) {
        requests.push(message);
        if (message.method === "initialize") initialize = true;
      } else if (isJSONRPCNotification(message)) {
        notifications.push(message);
      } else if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) {
        sendJsonRpcError(response, 400, ErrorCode.ParseError, "Parse error: Invalid JSON-RPC message");
        return;
      }
      // Responses (to server-to-client requests, which this server never sends) are dropped.
    }
    if (initialize && messages.length > 1) {
      sendJsonRpcError(response, 400, ErrorCode.InvalidRequest, "Invalid Request: Only one initialization request is allowed");
      return;
    }
    if (!initialize) {
      const version = request.headers["mcp-protocol-version"];
      if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
        sendJsonRpcError(
          response,
          400,
          -32000,
          `Bad Request: Unsupported protocol version: ${String(version)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
        );
        return;
      }
    }

    if (notifications.length > 0) transport.deliverNotifications(notifications);
    if (requests.length === 0) {
      response.writeHead(202, { "content-length": 0 });
      response.end();
      return;
    }
    const pending = transport.dispatch(requests);
    const onClose = (): void => {
      if (!response.writableFinished) pending.abandon("The HTTP client closed the connection before the answer.");
    };
    response.once("close", onClose);
    const replies = await pending.replies;
    if (response.destroyed) return;
    response.off("close", onClose);
    sendJson(response, 200, JSON.stringify(isBatch ? replies : replies[0]));
  };
}
