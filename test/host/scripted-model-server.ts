/**
 * An OpenAI-compatible chat completions server on loopback whose answers come from a script, for host
 * checks that run real agent turns without a real model (`models.providers.<id>` with
 * `api: "openai-completions"` and this `baseUrl`).
 *
 * The script is a function of the request: it sees every message the host sent (system prompt, the
 * conversation, tool results, and the context the host appends after tool results) and the tool
 * definitions, and returns either text or tool calls. It must decide from what is in the request, not
 * from how many times it was called, because the host may call more than once per step (it appends its
 * own context as extra user messages after tool results; a script that answers "the last message is a
 * user message" with another tool call loops). Every request and reply is recorded for assertions.
 * A script that throws fails the request with a 400 (not retried by the host) and the error is kept.
 *
 * Streaming (`stream: true`, server-sent events ending in `data: [DONE]`) and plain JSON answers are
 * both served, with a usage block, as the OpenAI API does.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  name?: string;
}

export interface ToolDefinition {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ModelRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  stream?: boolean;
  [key: string]: unknown;
}

/** Text, tool calls, or both (a message with its tool calls, as models write a proposal beside the call). */
export type ScriptedReply = { text?: string; toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }> };

export interface RecordedExchange {
  request: ModelRequest;
  reply: ScriptedReply;
  at: number;
}

export type ModelScript = (request: ModelRequest) => ScriptedReply;

export interface ScriptedModelServer {
  /** `http://127.0.0.1:PORT/v1`, the provider's `baseUrl`. */
  readonly baseUrl: string;
  readonly exchanges: readonly RecordedExchange[];
  /** Errors the script threw (each also failed its request). */
  readonly failures: readonly Error[];
  /** Swaps the script (between scenarios). */
  setScript(script: ModelScript): void;
  close(): Promise<void>;
}

export async function startScriptedModelServer(script: ModelScript): Promise<ScriptedModelServer> {
  const exchanges: RecordedExchange[] = [];
  const failures: Error[] = [];
  let current = script;
  let callCounter = 0;

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (request.method === "GET" && url.pathname === "/v1/models") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ object: "list", data: [{ id: "scripted-coach", object: "model", owned_by: "test" }] }));
        return;
      }
      if (request.method !== "POST" || url.pathname !== "/v1/chat/completions") {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: `no route ${request.method} ${url.pathname}`, type: "not_found" } }));
        return;
      }
      let body: ModelRequest;
      let reply: ScriptedReply;
      try {
        body = JSON.parse(await readBody(request)) as ModelRequest;
        reply = current(body);
        if (!reply.text && !reply.toolCalls?.length) throw new Error("the script answered neither text nor tool calls");
      } catch (error) {
        failures.push(error as Error);
        // A script that cannot decide is a failed check, not a hang: answer an error the host reports.
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: `scripted model: ${(error as Error).message}`, type: "invalid_request_error" } }));
        return;
      }
      exchanges.push({ request: body, reply, at: Date.now() });
      const id = `chatcmpl-scripted-${exchanges.length}`;
      const created = Math.floor(Date.now() / 1000);
      const toolCalls = reply.toolCalls?.length
        ? reply.toolCalls.map((call, index) => ({
            index,
            id: `call_${++callCounter}`,
            type: "function" as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          }))
        : undefined;
      const content = reply.text ?? null;
      const finishReason = toolCalls ? "tool_calls" : "stop";
      const usage = { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050 };
      if (body.stream) {
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
        const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}): string =>
          `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
        response.write(
          chunk({ role: "assistant", ...(content !== null ? { content } : {}), ...(toolCalls ? { tool_calls: toolCalls } : {}) }, null),
        );
        response.write(chunk({}, finishReason));
        response.write(
          `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [], usage })}\n\n`,
        );
        response.end("data: [DONE]\n\n");
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created,
          model: body.model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content,
                ...(toolCalls ? { tool_calls: toolCalls.map(({ index: _index, ...call }) => call) } : {}),
              },
              finish_reason: finishReason,
            },
          ],
          usage,
        }),
      );
    })();
  });
  await once(server.listen(0, "127.0.0.1"), "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    exchanges,
    failures,
    setScript(script) {
      current = script;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The text of a message's content, whichever shape the host used. */
export function messageText(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) return message.content.map((part) => part.text ?? "").join("");
  return "";
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
