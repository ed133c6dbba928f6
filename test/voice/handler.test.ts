// The handler against a local HTTP/2 fake of Bedrock Converse: the request it sends (model, system prompt
// with the current time, maxTokens, thinking), the response object for every mode, date reconciliation,
// the retry on malformed output, and every error path. "Now" is fixed with a fake Date only.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { APIGatewayProxyResult } from "aws-lambda";
import { invocationContext, proxyEvent } from "../../voice/gateway-events.ts";
import type { handler as Handler, InvocationContext } from "../../voice/handler.ts";
import { bedrockFakeEnv, startBedrockFake, type BedrockFake, type FakeAnswer } from "./bedrock-fake.ts";
import { captureStderr, type StderrCapture } from "./stderr-capture.ts";

const MODEL_ID = "us.anthropic.claude-sonnet-4-20250514-v1:0";
const NOW = "2026-03-07T18:00:00Z"; // Saturday 10:00 in Los Angeles (PST); DST starts tomorrow

let fake: BedrockFake;
let handler: typeof Handler;
let stderr: StderrCapture;

function post(body: unknown, context: InvocationContext = invocationContext("req-1")): Promise<APIGatewayProxyResult> {
  return handler(proxyEvent({ body: typeof body === "string" ? body : JSON.stringify(body), requestId: "req-1" }), context);
}

function json(result: APIGatewayProxyResult): Record<string, unknown> {
  expect(result.headers?.["Content-Type"]).toBe("application/json");
  return JSON.parse(result.body) as Record<string, unknown>;
}

const BASE = {
  markdown: "Body",
  title: "Title",
  dueISO: null,
  startISO: null,
  endISO: null,
  location: null,
  url: null,
  notes: null,
  tags: [],
};

function answer(fields: Record<string, unknown>): FakeAnswer {
  return { kind: "text", text: JSON.stringify({ ...BASE, ...fields }) };
}

function logLines(event: string): Array<Record<string, unknown>> {
  return stderr.lines().filter((line) => line.event === event);
}

function expectNoStackTrace(result: APIGatewayProxyResult): void {
  expect(result.body).not.toMatch(/\n\s+at |\.ts:\d+|node_modules/);
}

beforeAll(async () => {
  fake = await startBedrockFake();
  Object.assign(process.env, {
    ...bedrockFakeEnv(fake),
    VOICE_TIMEZONE: "America/Los_Angeles",
  });
  delete process.env.VOICE_MODEL_ID;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(NOW));
  ({ handler } = await import("../../voice/handler.ts"));
});

afterAll(async () => {
  vi.useRealTimers();
  await fake?.close();
});

beforeEach(() => {
  fake.reset();
  stderr = captureStderr();
});

afterEach(() => {
  stderr.restore();
});

describe("configuration", () => {
  // Runs first: the Bedrock client is built on the first request that gets past validation.
  it("answers 500 naming VOICE_MODEL_ID when it is not set, without calling the model", async () => {
    const result = await post({ text: "buy milk", mode: "note" });
    expect(result.statusCode).toBe(500);
    expect(String(json(result).message)).toContain("VOICE_MODEL_ID");
    expect(fake.requests).toHaveLength(0);
    process.env.VOICE_MODEL_ID = MODEL_ID;
  });
});

describe("the Converse request", () => {
  it("sends the model id in the path, the text as the user message, a system prompt with the current instant and zone, and the mode's maxTokens", async () => {
    fake.queue(answer({ action: "reminder", title: "Call mom" }));
    await post({ text: "Remind me tomorrow at 9 AM to call mom", mode: "reminder" });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe(`/model/${encodeURIComponent(MODEL_ID)}/converse`);
    expect(request?.modelId).toBe(MODEL_ID);
    expect(request?.body.messages).toEqual([{ role: "user", content: [{ text: "Remind me tomorrow at 9 AM to call mom" }] }]);
    const system = request?.body.system?.[0]?.text ?? "";
    expect(system).toContain("Current instant: 2026-03-07T18:00:00Z");
    expect(system).toContain("Reference time zone: America/Los_Angeles");
    expect(system).toContain("Saturday, March 7, 2026 at 10:00 (UTC-08:00)");
    expect(system).toContain('"action" must be "reminder"');
    expect(request?.body.inferenceConfig).toEqual({ maxTokens: 512 });
    expect(request?.body.additionalModelRequestFields).toBeUndefined();
  });

  it("passes the caller's maxTokens", async () => {
    fake.queue(answer({ action: "note" }));
    await post({ text: "Why is the sky blue?", mode: "research", maxTokens: 3000 });
    expect(fake.requests[0]?.body.inferenceConfig).toEqual({ maxTokens: 3000 });
  });

  it("sends deepthink's default thinking budget below maxTokens and no temperature", async () => {
    fake.queue({ kind: "text", reasoning: "Let me weigh this.", text: JSON.stringify({ ...BASE, action: "note" }) });
    const result = await post({ text: "Should I take the job offer?", mode: "deepthink" });
    expect(result.statusCode).toBe(200);
    const body = fake.requests[0]?.body;
    expect(body?.inferenceConfig).toEqual({ maxTokens: 8192 });
    expect(body?.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 4096 } });
  });

  it("sends the caller's thinkingTokens", async () => {
    fake.queue(answer({ action: "note" }));
    await post({ text: "Should I take the job offer?", mode: "deepthink", thinkingTokens: 2048, maxTokens: 6000 });
    expect(fake.requests[0]?.body.inferenceConfig).toEqual({ maxTokens: 6000 });
    expect(fake.requests[0]?.body.additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 2048 } });
  });

  it("raises maxTokens above a large thinking budget when the caller gives no maxTokens", async () => {
    fake.queue(answer({ action: "note" }));
    await post({ text: "Plan my season", mode: "deepthink", thinkingTokens: 16000 });
    expect(fake.requests[0]?.body.inferenceConfig).toEqual({ maxTokens: 20096 });
  });

  it("gives thinking half of a caller's maxTokens, and none when half is under Bedrock's 1024 minimum", async () => {
    fake.queue(answer({ action: "note" }), answer({ action: "note" }));
    await post({ text: "Plan my season", mode: "deepthink", maxTokens: 6000 });
    await post({ text: "Plan my season", mode: "deepthink", maxTokens: 1500 });
    expect(
      fake.requests.map((r) => [r.body.inferenceConfig?.maxTokens, r.body.additionalModelRequestFields?.thinking?.budget_tokens]),
    ).toEqual([
      [6000, 3000],
      [1500, undefined],
    ]);
  });

  it("sends no thinking when thinkingTokens is 0, and none outside deepthink", async () => {
    fake.queue(answer({ action: "note" }), answer({ action: "note" }));
    await post({ text: "Should I take the job offer?", mode: "deepthink", thinkingTokens: 0 });
    await post({ text: "Buy milk", mode: "note", thinkingTokens: 2048 });
    expect(fake.requests.map((r) => r.body.additionalModelRequestFields)).toEqual([undefined, undefined]);
  });

  it("uses the request's own time zone for the prompt and the dates", async () => {
    fake.queue(answer({ action: "reminder" }));
    const result = await post({ text: "tomorrow at 10 call grandma", mode: "reminder", timezone: "Europe/Berlin" });
    expect(fake.requests[0]?.body.system?.[0]?.text).toContain("Reference time zone: Europe/Berlin");
    expect(json(result).dueISO).toBe("2026-03-08T09:00:00Z"); // 10:00 CET
  });
});

describe("the response object", () => {
  it("returns all ten fields for a reminder, due time resolved from the text across the DST change", async () => {
    fake.queue(answer({ action: "reminder", title: "Call mom", markdown: "Call mom", dueISO: "2026-03-08T16:00:00Z", tags: ["family"] }));
    const result = await post({ text: "Remind me tomorrow at 9 AM to call mom", mode: "reminder" });
    expect(result.statusCode).toBe(200);
    const body = json(result);
    expect(Object.keys(body)).toEqual(["markdown", "action", "title", "dueISO", "startISO", "endISO", "location", "url", "notes", "tags"]);
    expect(body).toEqual({
      markdown: "Call mom",
      action: "reminder",
      title: "Call mom",
      dueISO: "2026-03-08T16:00:00Z",
      startISO: null,
      endISO: null,
      location: null,
      url: null,
      notes: null,
      tags: ["family"],
    });
    expect(logLines("model_date_overridden")).toHaveLength(0);
  });

  it("returns an event with start and end from the text, location and url from the model, dueISO null", async () => {
    fake.queue(
      answer({
        action: "event",
        title: "Team sync",
        dueISO: "2026-03-09T17:00:00Z",
        startISO: "2026-03-09T17:00:00Z",
        endISO: "2026-03-09T17:45:00Z",
        location: "Room 4",
        url: "https://meet.example.com/sync",
        notes: "Bring the roadmap",
        tags: ["work"],
      }),
    );
    const body = json(await post({ text: "Team sync Monday at 10am for 45 minutes in Room 4", mode: "event" }));
    expect(body).toMatchObject({
      action: "event",
      dueISO: null,
      startISO: "2026-03-09T17:00:00Z",
      endISO: "2026-03-09T17:45:00Z",
      location: "Room 4",
      url: "https://meet.example.com/sync",
      notes: "Bring the roadmap",
    });
  });

  it.each(["note", "research", "deepthink"] as const)(
    "answers action note for %s, with every date, location and url null",
    async (mode) => {
      fake.queue(
        answer({
          action: "note",
          title: "Offsite",
          markdown: "# Offsite\n- ideas",
          dueISO: "2026-03-08T17:00:00Z",
          startISO: "2026-03-08T17:00:00Z",
          location: "Lisbon",
          url: "https://example.com",
          tags: ["work", " work ", "offsite"],
        }),
      );
      const body = json(await post({ text: "Idea for the team offsite tomorrow at 9am", mode }));
      expect(body).toEqual({
        markdown: "# Offsite\n- ideas",
        action: "note",
        title: "Offsite",
        dueISO: null,
        startISO: null,
        endISO: null,
        location: null,
        url: null,
        notes: null,
        tags: ["work", "offsite"],
      });
    },
  );

  it("keeps the resolver's time when the model disagrees, and logs it", async () => {
    // The model applied today's offset (PST) to tomorrow, which is PDT: an hour late.
    fake.queue(answer({ action: "reminder", dueISO: "2026-03-08T17:00:00Z" }));
    const body = json(await post({ text: "Remind me tomorrow at 9 AM to call mom", mode: "reminder" }));
    expect(body.dueISO).toBe("2026-03-08T16:00:00Z");
    expect(logLines("model_date_overridden")).toEqual([
      expect.objectContaining({
        level: "warn",
        field: "dueISO",
        resolver: "2026-03-08T16:00:00Z",
        model: "2026-03-08T17:00:00Z",
        timeZone: "America/Los_Angeles",
      }),
    ]);
  });

  it("uses the model's timestamp, normalised to UTC with Z, when the text gives nothing the resolver can read", async () => {
    fake.queue(answer({ action: "reminder", dueISO: "2026-03-15T09:00:00-07:00" }));
    const body = json(await post({ text: "Remind me to stretch after the marathon", mode: "reminder" }));
    expect(body.dueISO).toBe("2026-03-15T16:00:00Z");
  });

  it("drops a model timestamp that is not ISO 8601 with a zone, and logs why", async () => {
    fake.queue(answer({ action: "reminder", dueISO: "next Tuesday" }));
    const body = json(await post({ text: "Remind me to stretch after the marathon", mode: "reminder" }));
    expect(body.dueISO).toBeNull();
    expect(logLines("model_timestamp_rejected")).toEqual([expect.objectContaining({ field: "dueISO" })]);
  });

  it("drops a model timestamp years away", async () => {
    fake.queue(answer({ action: "reminder", dueISO: "2036-03-15T16:00:00Z" }));
    const body = json(await post({ text: "Remind me to stretch after the marathon", mode: "reminder" }));
    expect(body.dueISO).toBeNull();
  });

  it("applies a spoken duration to the model's start when the text has no start the resolver reads", async () => {
    fake.queue(answer({ action: "event", startISO: "2026-03-20T02:00:00Z", endISO: "2026-03-20T05:00:00Z" }));
    const body = json(await post({ text: "Book club after the school play for 45 minutes", mode: "event" }));
    expect(body).toMatchObject({ startISO: "2026-03-20T02:00:00Z", endISO: "2026-03-20T02:45:00Z" });
  });

  it("gives a model-only event one hour when the model's end is not after its start", async () => {
    fake.queue(answer({ action: "event", startISO: "2026-03-20T02:00:00Z", endISO: "2026-03-20T01:00:00Z" }));
    const body = json(await post({ text: "Book club after the school play", mode: "event" }));
    expect(body).toMatchObject({ startISO: "2026-03-20T02:00:00Z", endISO: "2026-03-20T03:00:00Z" });
  });

  it("accepts an answer wrapped in a Markdown code fence", async () => {
    fake.queue({ kind: "text", text: "```json\n" + JSON.stringify({ ...BASE, action: "note" }) + "\n```" });
    expect((await post({ text: "Buy milk", mode: "note" })).statusCode).toBe(200);
  });

  it("accepts a base64-encoded body as API Gateway may send it", async () => {
    fake.queue(answer({ action: "note" }));
    const body = Buffer.from(JSON.stringify({ text: "Buy milk", mode: "note" })).toString("base64");
    const result = await handler({ ...proxyEvent({ body }), isBase64Encoded: true }, invocationContext());
    expect(result.statusCode).toBe(200);
  });

  it("never logs the dictated text", async () => {
    fake.queue(answer({ action: "reminder", dueISO: "2026-03-08T17:00:00Z" }));
    await post({ text: "Remind me tomorrow at 9 AM to call my cardiologist", mode: "reminder" });
    expect(stderr.raw()).not.toContain("cardiologist");
  });
});

describe("malformed model output", () => {
  it("retries once with the problem in the prompt, then answers", async () => {
    fake.queue({ kind: "text", text: "Sure! Here is your note: buy milk" }, answer({ action: "note", title: "Milk" }));
    const result = await post({ text: "Buy milk", mode: "note" });
    expect(result.statusCode).toBe(200);
    expect(json(result).title).toBe("Milk");
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.body.system?.[0]?.text).toContain("Your previous answer could not be used (the answer is not a JSON object)");
    expect(logLines("model_answer_rejected")).toHaveLength(1);
  });

  it.each([
    ["not JSON", { kind: "text", text: "no json here" }],
    ["a field missing", { kind: "text", text: JSON.stringify({ markdown: "x", action: "note", title: "t" }) }],
    ["the wrong action", answer({ action: "event" })],
    ["an empty title", answer({ action: "note", title: "  " })],
    ["tags not strings", answer({ action: "note", tags: [1, 2] })],
    ["an empty answer", { kind: "text", text: "" }],
  ] as Array<[string, FakeAnswer]>)(
    "answers 502 with a fixed JSON message after two answers with %s; the problem goes to the log",
    async (_label, bad) => {
      fake.queue(bad, bad);
      const result = await post({ text: "Buy milk", mode: "note" });
      expect(result.statusCode).toBe(502);
      expect(json(result)).toEqual({ message: "The model's answer was not a valid capture object twice; try again." });
      expect(fake.requests).toHaveLength(2);
      expectNoStackTrace(result);
      expect(String(logLines("capture_failed")[0]?.["message"])).toMatch(
        /^The model's answer was not a valid capture object twice \(.+\)\.$/,
      );
    },
  );

  it("says to raise maxTokens when the answer was cut off", async () => {
    const cut: FakeAnswer = { kind: "text", text: '{"markdown": "# Long', stopReason: "max_tokens" };
    fake.queue(cut, cut);
    const result = await post({ text: "Explain the history of Rome", mode: "research", maxTokens: 256 });
    expect(result.statusCode).toBe(502);
    expect(json(result)).toEqual({
      message: "The model's answer was not a valid capture object twice: it was cut off at maxTokens. Send a larger maxTokens.",
    });
  });
});

/** What a caller reads for each 502: fixed, whatever the cause (the cause is for the operator, in the log). */
const modelSetupMessage =
  "The voice service could not use its model: its AWS credentials, model access or model id need the operator's attention (the handler's log says which).";
const modelRejectedMessage =
  "The model rejected the request. If you set maxTokens or thinkingTokens, try lower values; otherwise the handler's log says why.";
const bedrockFailedMessage = "Bedrock failed while answering; try again.";

describe("Bedrock errors", () => {
  it.each([
    ["ThrottlingException", 429, 429, /throttling/, /throttling/],
    ["ServiceQuotaExceededException", 400, 429, /throttling/, /throttling/],
    ["ModelTimeoutException", 408, 504, /timed out/, /timed out/],
    ["ModelNotReadyException", 429, 503, /not ready/, /not ready/],
    ["ServiceUnavailableException", 503, 503, /unavailable/, /unavailable/],
    ["AccessDeniedException", 403, 502, modelSetupMessage, /enable access to this model.*bedrock:InvokeModel/],
    ["ResourceNotFoundException", 404, 502, modelSetupMessage, /not found.*VOICE_MODEL_ID/],
    ["ValidationException", 400, 502, modelRejectedMessage, /rejected the request \(ValidationException from the fake\)/],
    ["InternalServerException", 500, 502, bedrockFailedMessage, /Bedrock failed while running the model .* \(HTTP 500\)/],
  ])("%s (HTTP %i) answers %i with a JSON message; the log has the cause", async (errorType, upstreamStatus, status, answered, logged) => {
    fake.fallback = { kind: "error", status: upstreamStatus, errorType, message: `${errorType} from the fake` };
    try {
      const result = await post({ text: "Buy milk", mode: "note" });
      expect(result.statusCode).toBe(status);
      const body = json(result);
      expect(Object.keys(body)).toEqual(["message"]);
      if (typeof answered === "string") expect(body.message).toBe(answered);
      else expect(String(body.message)).toMatch(answered);
      // A 502 names neither the model nor Bedrock's own words: those are for the operator.
      if (status === 502) expect(result.body).not.toMatch(new RegExp(`${MODEL_ID.replace(/[.:]/g, "\\$&")}|from the fake|us-west-2`));
      expectNoStackTrace(result);
      expect(logLines("capture_failed")).toEqual([expect.objectContaining({ status, level: "warn" })]);
      expect(String(logLines("capture_failed")[0]?.["message"])).toMatch(logged);
    } finally {
      fake.fallback = { kind: "error", status: 500, errorType: "InternalServerException", message: "no answer queued in the fake" };
    }
  });

  it("answers 502 when Bedrock's answer cannot be read", async () => {
    fake.queue({ kind: "raw", status: 200, body: "<html>not json</html>" });
    const result = await post({ text: "Buy milk", mode: "note" });
    expect(result.statusCode).toBe(502);
    expect(json(result)).toEqual({ message: bedrockFailedMessage });
    expectNoStackTrace(result);
  });

  it("answers 504 when the model does not answer before the function's deadline", async () => {
    fake.queue({ kind: "hang" });
    const result = await post({ text: "Buy milk", mode: "note" }, invocationContext("req-1", 2_000));
    expect(result.statusCode).toBe(504);
    expect(String(json(result).message)).toMatch(/did not answer in time/);
  });
});

describe("request validation (400, no model call)", () => {
  const tooLong = "a".repeat(4001);
  it.each([
    ["an empty body", "", null],
    ["invalid JSON", "{text:", null],
    ["a JSON array", "[]", null],
    ["no text", { mode: "note" }, "text"],
    ["blank text", { text: "   ", mode: "note" }, "text"],
    ["text over 4000 characters", { text: tooLong, mode: "note" }, "text"],
    ["text not a string", { text: 42, mode: "note" }, "text"],
    ["no mode", { text: "hi" }, "mode"],
    ["an unknown mode", { text: "hi", mode: "poem" }, "mode"],
    ["a fractional maxTokens", { text: "hi", mode: "note", maxTokens: 100.5 }, "maxTokens"],
    ["maxTokens as a string", { text: "hi", mode: "note", maxTokens: "1000" }, "maxTokens"],
    ["maxTokens below 256", { text: "hi", mode: "note", maxTokens: 100 }, "maxTokens"],
    ["maxTokens above 32000", { text: "hi", mode: "note", maxTokens: 32001 }, "maxTokens"],
    ["thinkingTokens between 1 and 1023", { text: "hi", mode: "deepthink", thinkingTokens: 500 }, "thinkingTokens"],
    ["thinkingTokens above 24000", { text: "hi", mode: "deepthink", thinkingTokens: 24001 }, "thinkingTokens"],
    ["thinkingTokens not below maxTokens", { text: "hi", mode: "deepthink", thinkingTokens: 4096, maxTokens: 4096 }, "thinkingTokens"],
    ["an unknown time zone", { text: "hi", mode: "note", timezone: "Mars/Base" }, "timezone"],
  ])("rejects %s", async (_label, body, field) => {
    const result = await post(body);
    expect(result.statusCode).toBe(400);
    const message = String(json(result).message);
    if (field) expect(message).toContain(`"${field}"`);
    else expect(message).toMatch(/request body/);
    expect(fake.requests).toHaveLength(0);
  });
});
