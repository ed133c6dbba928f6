// build/voice-functions.ts: each function bundles to one ESM file, and the bundles run on their own: the authorizer
// denies a request without a token, the handler answers a capture (Bedrock answered by the HTTP/2 fake).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildVoiceBundles, type BundleReport } from "../../build/voice-functions.ts";
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult } from "aws-lambda";
import { authorizerEvent, invocationContext, proxyEvent } from "../../voice/gateway-events.ts";
import type { handler as Authorizer } from "../../voice/authorizer.ts";
import type { handler as Handler } from "../../voice/handler.ts";
import { bedrockFakeEnv, startBedrockFake, type BedrockFake } from "./bedrock-fake.ts";
import { captureStderr } from "./stderr-capture.ts";

let outDir: string;
let reports: BundleReport[];
let fake: BedrockFake;

function report(name: string): BundleReport {
  const found = reports.find((r) => r.name === name);
  if (!found) throw new Error(`no ${name} bundle`);
  return found;
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "voice-bundles-"));
  reports = await buildVoiceBundles(outDir);
  fake = await startBedrockFake();
  Object.assign(process.env, {
    ...bedrockFakeEnv(fake),
    VOICE_MODEL_ID: "anthropic.claude-sonnet-4-20250514-v1:0",
    VOICE_TIMEZONE: "UTC",
    CLIENT_TOKEN_PARAMETER: "/voice/client-token",
  });
}, 120_000);

afterAll(async () => {
  await fake?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe("voice bundles", () => {
  it("writes one .mjs file per function, in the directory the template's CodeUri names", () => {
    expect(reports.map((r) => r.name)).toEqual(["authorizer", "handler"]);
    for (const r of reports) {
      expect(basename(dirname(r.file))).toBe(r.name);
      expect(readdirSync(dirname(r.file))).toEqual([`${r.name}.mjs`]);
      expect(r.bytes).toBeGreaterThan(0);
      expect(r.gzipBytes).toBeLessThan(r.bytes);
    }
  });

  it("the authorizer bundle denies a request without a token (missing_token)", async () => {
    const { handler } = (await import(pathToFileURL(report("authorizer").file).href)) as { handler: typeof Authorizer };
    const stderr = captureStderr();
    try {
      const result: APIGatewayAuthorizerResult = await handler(authorizerEvent({ headers: {} }));
      expect(result.policyDocument.Statement[0]?.Effect).toBe("Deny");
      expect(stderr.lines().map((line) => line.denial)).toEqual(["missing_token"]);
    } finally {
      stderr.restore();
    }
  });

  it("the handler bundle validates and answers a capture", async () => {
    const { handler } = (await import(pathToFileURL(report("handler").file).href)) as { handler: typeof Handler };
    const capture = (body: unknown): Promise<APIGatewayProxyResult> =>
      handler(proxyEvent({ body: JSON.stringify(body) }), invocationContext());
    const stderr = captureStderr();
    try {
      const bad = await capture({ text: "buy milk", mode: "shopping" });
      expect(bad.statusCode).toBe(400);
      fake.queue({
        kind: "text",
        text: JSON.stringify({
          markdown: "- milk",
          action: "note",
          title: "Milk",
          dueISO: null,
          startISO: null,
          endISO: null,
          location: null,
          url: null,
          notes: null,
          tags: [],
        }),
      });
      const good = await capture({ text: "buy milk", mode: "note" });
      expect(good.statusCode).toBe(200);
      expect(JSON.parse(good.body)).toMatchObject({ action: "note", title: "Milk" });
      expect(fake.requests).toHaveLength(1);
    } finally {
      stderr.restore();
    }
  });
});
