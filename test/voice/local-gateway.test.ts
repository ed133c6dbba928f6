// The local gateway (`npm run voice`) in-process on a random port: the gateway's exact 403 and 429 bodies,
// the burst behaviour of the stage throttle, and a full capture through the real authorizer and handler
// (Bedrock answered by the local HTTP/2 fake).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
// Static imports are safe: the voice modules read the environment on first use, not at import.
import { authorizerFromEnvironment, startLocalGateway, type LocalGateway } from "../../voice/local-gateway.ts";
import { TokenBucket } from "../../voice/token-bucket.ts";
import { bedrockFakeEnv, startBedrockFake, type BedrockFake } from "./bedrock-fake.ts";
import { captureStderr, type StderrCapture } from "./stderr-capture.ts";

const TOKEN = "local-token-3b1f0c9e2d7a";
const DENY = '{"Message":"User is not authorized to access this resource with an explicit deny"}';
const THROTTLED = '{"message":"Rate Exceeded."}';

let fake: BedrockFake;
let stderr: StderrCapture;

async function invoke(
  gateway: LocalGateway,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const response = await fetch(gateway.invokeUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  fake = await startBedrockFake();
  Object.assign(process.env, {
    ...bedrockFakeEnv(fake),
    VOICE_MODEL_ID: "anthropic.claude-sonnet-4-20250514-v1:0",
    VOICE_TIMEZONE: "UTC",
  });
  delete process.env.CLIENT_TOKEN_PARAMETER;
});

afterAll(async () => {
  await fake?.close();
});

beforeEach(() => {
  fake.reset();
  stderr = captureStderr();
});

afterEach(() => {
  stderr.restore();
});

describe("with VOICE_LOCAL_CLIENT_TOKEN", () => {
  let gateway: LocalGateway;

  beforeAll(async () => {
    const { authorizer } = authorizerFromEnvironment({ VOICE_LOCAL_CLIENT_TOKEN: TOKEN });
    gateway = await startLocalGateway({ port: 0, authorizer });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it("listens on 127.0.0.1 at /dev/invoke", () => {
    expect(gateway.invokeUrl).toBe(`http://127.0.0.1:${gateway.port}/dev/invoke`);
  });

  it("answers 403 with the gateway's explicit-deny body when the token is missing", async () => {
    const result = await invoke(gateway, { text: "buy milk", mode: "note" });
    expect(result).toEqual({ status: 403, text: DENY });
    expect(
      stderr
        .lines()
        .filter((l) => l.event === "request_denied")
        .map((l) => l.denial),
    ).toEqual(["missing_token"]);
    expect(fake.requests).toHaveLength(0);
  });

  it("answers 403 with the same body for a wrong token", async () => {
    const result = await invoke(gateway, { text: "buy milk", mode: "note" }, { "X-Client-Token": "wrong" });
    expect(result).toEqual({ status: 403, text: DENY });
    expect(
      stderr
        .lines()
        .filter((l) => l.event === "request_denied")
        .map((l) => l.denial),
    ).toEqual(["token_mismatch"]);
    expect(stderr.raw()).not.toContain(TOKEN);
  });

  it("runs the handler for the right token and returns its answer", async () => {
    fake.queue({
      kind: "text",
      text: JSON.stringify({
        markdown: "- milk",
        action: "note",
        title: "Groceries",
        dueISO: null,
        startISO: null,
        endISO: null,
        location: null,
        url: null,
        notes: null,
        tags: ["shopping"],
      }),
    });
    const result = await invoke(gateway, { text: "buy milk", mode: "note" }, { "x-client-token": TOKEN });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.text)).toMatchObject({ action: "note", title: "Groceries", tags: ["shopping"] });
    expect(fake.requests).toHaveLength(1);
  });

  it("passes the handler's 400 through", async () => {
    const result = await invoke(gateway, { text: "buy milk", mode: "haiku" }, { "X-Client-Token": TOKEN });
    expect(result.status).toBe(400);
    expect(JSON.parse(result.text).message).toContain('"mode"');
  });

  it("answers 413 for a body over 1 MB without running the authorizer, and closes the connection", async () => {
    const result = await fetch(gateway.invokeUrl, { method: "POST", headers: { "X-Client-Token": TOKEN }, body: "x".repeat(1_000_001) });
    expect([result.status, result.headers.get("connection"), await result.text()]).toEqual([
      413,
      "close",
      '{"message":"Request Too Long"}',
    ]);
    expect(stderr.lines().filter((l) => l.event === "request_denied" || l.event === "request_allowed")).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it("answers other routes and methods the way API Gateway does", async () => {
    const get = await fetch(gateway.invokeUrl, { headers: { "X-Client-Token": TOKEN } });
    expect([get.status, await get.text()]).toEqual([403, '{"message":"Missing Authentication Token"}']);
    const other = await fetch(gateway.invokeUrl.replace("/dev/invoke", "/prod/invoke"), { method: "POST", body: "{}" });
    expect(other.status).toBe(403);
  });
});

describe("stage throttle (token bucket 10/s, burst 20)", () => {
  let gateway: LocalGateway;
  let now = 0;

  beforeAll(async () => {
    const { authorizer } = authorizerFromEnvironment({ VOICE_LOCAL_CLIENT_TOKEN: TOKEN });
    // A clock that only moves when the test moves it: "quick" requests without timing the test.
    const limiter = new TokenBucket({ ratePerSecond: 10, burst: 20, now: () => now });
    gateway = await startLocalGateway({ port: 0, authorizer, limiter });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it("lets 20 of 21 quick requests through to the authorizer and answers the 21st 429 Rate Exceeded.", async () => {
    const results = await Promise.all(Array.from({ length: 21 }, () => invoke(gateway, { text: "x", mode: "note" })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 403)).toHaveLength(20);
    expect(results.filter((r) => r.status === 429)).toEqual([{ status: 429, text: THROTTLED }]);
  });

  it("refills at 10 per second", async () => {
    expect((await invoke(gateway, { text: "x", mode: "note" })).status).toBe(429);
    now += 100; // one token
    expect((await invoke(gateway, { text: "x", mode: "note" })).status).toBe(403);
    expect((await invoke(gateway, { text: "x", mode: "note" })).status).toBe(429);
    now += 5_000; // refills to the burst, not beyond
    const statuses = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await invoke(gateway, { text: "x", mode: "note" })).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
  });
});

describe("without VOICE_LOCAL_CLIENT_TOKEN", () => {
  it("uses the parameter store authorizer (here unconfigured: store_failure, 403)", async () => {
    const { authorizer, tokenSource } = authorizerFromEnvironment({});
    expect(tokenSource).toBe("the deployed one, in the SSM parameter CLIENT_TOKEN_PARAMETER names (not set) (not shown here)");
    const gateway = await startLocalGateway({ port: 0, authorizer });
    try {
      const result = await invoke(gateway, { text: "x", mode: "note" }, { "X-Client-Token": TOKEN });
      expect(result).toEqual({ status: 403, text: DENY });
      expect(stderr.lines().find((l) => l.event === "request_denied")).toMatchObject({ denial: "store_failure" });
    } finally {
      await gateway.close();
    }
  });
});

describe("an authorizer or handler that fails rather than answers", () => {
  const logged: Array<{ event: string; fields: unknown }> = [];
  const recorder = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (event: string, fields?: unknown) => void logged.push({ event, fields }),
  };
  beforeEach(() => void (logged.length = 0));

  it("answers 500 AuthorizerConfigurationException when the authorizer throws, logging its error's name only", async () => {
    const gateway = await startLocalGateway({
      port: 0,
      log: recorder,
      authorizer: async () => {
        throw new TypeError(`no table for ${TOKEN}`);
      },
    });
    try {
      const response = await fetch(gateway.invokeUrl, { method: "POST", body: "{}" });
      expect(response.status).toBe(500);
      expect(response.headers.get("x-amzn-errortype")).toBe("AuthorizerConfigurationException");
      expect(await response.text()).toBe('{"message":null}');
    } finally {
      await gateway.close();
    }
    expect(logged).toEqual([{ event: "authorizer_failed", fields: { requestId: expect.any(String), error: "TypeError" } }]);
    expect(JSON.stringify(logged)).not.toContain(TOKEN);
  });

  it("answers 502 Internal server error when the handler throws, and logs handler_failed", async () => {
    const { authorizer } = authorizerFromEnvironment({ VOICE_LOCAL_CLIENT_TOKEN: TOKEN });
    const gateway = await startLocalGateway({
      port: 0,
      log: recorder,
      authorizer,
      handler: async () => {
        throw new RangeError("the handler broke");
      },
    });
    try {
      const { status, text } = await invoke(gateway, { text: "ran 5k", mode: "note" }, { "x-client-token": TOKEN });
      expect({ status, text }).toEqual({ status: 502, text: '{"message":"Internal server error"}' });
    } finally {
      await gateway.close();
    }
    expect(logged).toEqual([{ event: "handler_failed", fields: { requestId: expect.any(String), error: "RangeError" } }]);
  });
});
