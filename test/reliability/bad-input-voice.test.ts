/**
 * Property: malformed bodies at the voice handler (not JSON, not an object, a field of the wrong type
 * or out of bounds, huge text) always get a 400 with a JSON `message` naming the problem, never a
 * stack trace, and never reach the model (the local Bedrock fake counts every request).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import fc from "fast-check";
import { invocationContext, proxyEvent } from "../../voice/gateway-events.ts";
import type { handler as Handler } from "../../voice/handler.ts";
import { bedrockFakeEnv, startBedrockFake, type BedrockFake } from "../voice/bedrock-fake.ts";
import { textMaxChars } from "../../voice/capture-request.ts";
import { captureStderr, type StderrCapture } from "../voice/stderr-capture.ts";

let fake: BedrockFake;
let stderr: StderrCapture;
let handler: typeof Handler;
const savedEnv = { ...process.env };

beforeAll(async () => {
  fake = await startBedrockFake();
  Object.assign(process.env, {
    ...bedrockFakeEnv(fake),
    VOICE_MODEL_ID: "test-model",
  });
  ({ handler } = await import("../../voice/handler.ts"));
  stderr = captureStderr();
});
afterAll(async () => {
  stderr?.restore();
  process.env = savedEnv;
  await fake?.close();
});

const valid = { text: "Remind me to stretch tomorrow at 9am", mode: "reminder" };

/** A body that breaks exactly one rule, with a word its error message must contain. */
const badBody: fc.Arbitrary<{ body: string; mentions: string }> = fc.oneof(
  fc
    .string()
    .filter((text) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    })
    .map((body) => ({ body, mentions: "JSON" })),
  fc
    .oneof(fc.integer(), fc.boolean(), fc.array(fc.anything(), { maxLength: 3 }), fc.string(), fc.constant(null))
    .map((value) => ({ body: JSON.stringify(value), mentions: "" })),
  fc
    .oneof(fc.integer(), fc.boolean(), fc.constant(""), fc.constant("   "), fc.array(fc.string(), { maxLength: 2 }), fc.constant(null))
    .map((text) => ({ body: JSON.stringify({ ...valid, text }), mentions: "text" })),
  fc
    .integer({ min: textMaxChars + 1, max: textMaxChars * 50 })
    .map((length) => ({ body: JSON.stringify({ ...valid, text: "a".repeat(length) }), mentions: "text" })),
  fc
    .oneof(
      fc.string().filter((mode) => !["note", "reminder", "event", "research", "deepthink"].includes(mode)),
      fc.integer(),
      fc.constant(null),
    )
    .map((mode) => ({ body: JSON.stringify({ ...valid, mode }), mentions: "mode" })),
  fc
    .oneof(
      fc.string(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
      fc.integer({ max: 255 }),
      fc.integer({ min: 32_001 }),
    )
    .map((maxTokens) => ({ body: JSON.stringify({ ...valid, maxTokens }), mentions: "maxTokens" })),
  fc
    .oneof(fc.string(), fc.integer({ min: 1, max: 1023 }), fc.integer({ min: 24_001 }), fc.integer({ max: -1 }))
    .map((thinkingTokens) => ({ body: JSON.stringify({ ...valid, mode: "deepthink", thinkingTokens }), mentions: "thinkingTokens" })),
  fc
    .oneof(fc.constantFrom("Mars/Olympus", "UTC+25", "America/Nowhere"), fc.integer())
    .map((timezone) => ({ body: JSON.stringify({ ...valid, timezone }), mentions: "timezone" })),
);

it("malformed bodies get a 400 naming the problem and never reach the model", async () => {
  fake.reset();
  await fc.assert(
    fc.asyncProperty(badBody, async ({ body, mentions }) => {
      const result = await handler(proxyEvent({ body, requestId: "fuzz" }), invocationContext("fuzz"));
      expect(result.statusCode, result.body).toBe(400);
      const parsed = JSON.parse(result.body) as { message?: unknown };
      expect(typeof parsed.message).toBe("string");
      expect(parsed.message as string).toContain(mentions);
      expect(result.body).not.toMatch(/\n\s+at |\.ts:\d+|node_modules/);
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
  );
  expect(fake.requests).toHaveLength(0);
  // Every rejection was logged as one structured line, each a 400.
  const rejections = stderr.lines().filter((line) => line["event"] === "capture_failed");
  expect(rejections.length).toBeGreaterThan(0);
  expect(rejections.every((line) => line["status"] === 400)).toBe(true);
});
