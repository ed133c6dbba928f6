// A local stand-in for Bedrock Runtime's Converse operation, at the network edge: a cleartext HTTP/2
// server (the SDK's Bedrock client speaks HTTP/2, which HTTP mocking libraries do not see). Tests point the real SDK at
// it with AWS_ENDPOINT_URL_BEDROCK_RUNTIME, queue answers, and read back the requests it received.
import { once } from "node:events";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";

export interface ConverseRequestSeen {
  path: string;
  /** Decoded `{modelId}` from `/model/{modelId}/converse`. */
  modelId: string;
  body: {
    system?: Array<{ text?: string }>;
    messages?: Array<{ role?: string; content?: Array<{ text?: string }> }>;
    inferenceConfig?: { maxTokens?: number; temperature?: number };
    additionalModelRequestFields?: { thinking?: { type?: string; budget_tokens?: number } };
  };
}

export type FakeAnswer =
  | { kind: "text"; text: string; stopReason?: string; reasoning?: string }
  | { kind: "error"; status: number; errorType: string; message: string }
  | { kind: "raw"; status: number; body: string }
  | { kind: "hang" }
  /** The item the prompt asks for, made from the dictated text without understanding it (npm run voice:offline). */
  | { kind: "echo" };

export interface BedrockFake {
  endpoint: string;
  requests: ConverseRequestSeen[];
  /** Answers for the next requests, in order; when the queue is empty, `fallback` answers. */
  queue(...answers: FakeAnswer[]): void;
  fallback: FakeAnswer;
  reset(): void;
  close(): Promise<void>;
}

/** The environment that points the AWS SDK's Bedrock runtime client at `fake`, with dummy credentials. */
export function bedrockFakeEnv(fake: BedrockFake): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.endpoint,
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_REGION: "us-west-2",
  };
}

/** A Converse success body around `text`, optionally after a reasoning block as extended thinking gives. */
function converseBody(answer: Extract<FakeAnswer, { kind: "text" }>): string {
  const content: unknown[] = [];
  if (answer.reasoning) content.push({ reasoningContent: { reasoningText: { text: answer.reasoning, signature: "sig" } } });
  content.push({ text: answer.text });
  return JSON.stringify({
    output: { message: { role: "assistant", content } },
    stopReason: answer.stopReason ?? "end_turn",
    usage: { inputTokens: 120, outputTokens: 80, totalTokens: 200 },
    metrics: { latencyMs: 42 },
  });
}

/**
 * The response object a system prompt asks for (its action is the one the prompt names), with the dictated
 * text as the note and its first words as the title. Dates stay null: the handler reads them from the text.
 */
function echoAnswer(body: ConverseRequestSeen["body"]): string {
  const system = body.system?.map((block) => block.text ?? "").join("\n") ?? "";
  const text =
    body.messages?.[0]?.content
      ?.map((block) => block.text ?? "")
      .join(" ")
      .trim() || "(nothing dictated)";
  const action = /"action" must be "(\w+)"/.exec(system)?.[1] ?? "note";
  const title = text.split(/\s+/).slice(0, 8).join(" ");
  return JSON.stringify({
    markdown: `- ${text}`,
    action,
    title,
    dueISO: null,
    startISO: null,
    endISO: null,
    location: null,
    url: null,
    notes: null,
    tags: ["offline"],
  });
}

export async function startBedrockFake(): Promise<BedrockFake> {
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  const pending: FakeAnswer[] = [];
  const fake: BedrockFake = {
    endpoint: "",
    requests: [],
    queue: (...answers) => pending.push(...answers),
    fallback: { kind: "error", status: 500, errorType: "InternalServerException", message: "no answer queued in the fake" },
    reset: () => {
      fake.requests.length = 0;
      pending.length = 0;
    },
    close: async () => {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  server.on("stream", (stream, headers) => {
    const path = String(headers[":path"] ?? "");
    let raw = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => (raw += chunk));
    stream.on("end", () => {
      const match = /^\/model\/([^/]+)\/converse$/.exec(path);
      fake.requests.push({
        path,
        modelId: match?.[1] ? decodeURIComponent(match[1]) : "",
        body: raw ? (JSON.parse(raw) as ConverseRequestSeen["body"]) : {},
      });
      const answer = pending.shift() ?? fake.fallback;
      if (answer.kind === "hang") return; // never answers; the client must give up
      if (stream.destroyed) return;
      if (answer.kind === "text" || answer.kind === "echo") {
        stream.respond({ ":status": 200, "content-type": "application/json" });
        stream.end(converseBody(answer.kind === "text" ? answer : { kind: "text", text: echoAnswer(fake.requests.at(-1)!.body) }));
      } else if (answer.kind === "raw") {
        stream.respond({ ":status": answer.status, "content-type": "application/json" });
        stream.end(answer.body);
      } else {
        stream.respond({ ":status": answer.status, "content-type": "application/json", "x-amzn-errortype": answer.errorType });
        stream.end(JSON.stringify({ message: answer.message }));
      }
    });
    stream.on("error", () => {});
  });

  await once(server.listen(0, "127.0.0.1"), "listening");
  fake.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
