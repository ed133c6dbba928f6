// The authorizer against a real moto_server (SSM SecureString with decryption): allow, mismatch, missing
// token and store failure, each checked by the policy returned and the denial type logged; then the token
// cache (60 s, re-read after a mismatch for rotation, one shared read) with an injected clock.
import { DeleteParameterCommand, PutParameterCommand, SSMClient } from "@aws-sdk/client-ssm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createClientTokenAuthorizer } from "../../voice/client-token-authorizer.ts";
import { clientTokenCacheMs, SsmClientTokenStore } from "../../voice/client-token-store.ts";
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from "aws-lambda";
import { authorizerEvent } from "../../voice/gateway-events.ts";
import type { Logger } from "../../common/logger.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { captureStderr, type StderrCapture } from "./stderr-capture.ts";

const PARAMETER = "/voice/client-token";
const ROTATION_PARAMETER = "/voice/rotation-test";
const TOKEN = "vc_9f8e7d6c5b4a39281706f5e4d3c2b1a0";
const WRONG_TOKEN = "vc_not-the-right-token-00000000000";
const METHOD_ARN = "arn:aws:execute-api:us-west-2:123456789012:abc123defg/prod/POST/invoke";

let moto: MotoServer;
let ssm: SSMClient;
let handler: (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;
let stderr: StderrCapture;

function eventWith(headers: Record<string, string>): APIGatewayRequestAuthorizerEvent {
  return { ...authorizerEvent({ headers, requestId: "req-123", sourceIp: "203.0.113.7", stage: "prod" }), methodArn: METHOD_ARN };
}

function effectOf(result: APIGatewayAuthorizerResult): string | undefined {
  return result.policyDocument.Statement[0]?.Effect;
}

function denials(): unknown[] {
  return stderr
    .lines()
    .filter((line) => line.event === "request_denied")
    .map((line) => line.denial);
}

async function putToken(value: string, name = PARAMETER): Promise<void> {
  await ssm.send(new PutParameterCommand({ Name: name, Value: value, Type: "SecureString", Overwrite: true }));
}

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  delete process.env.CLIENT_TOKEN_PARAMETER;
  ssm = new SSMClient({ region: moto.env.AWS_REGION });
  // Imported after the environment is set: the module builds its SSM client on first use.
  ({ handler } = await import("../../voice/authorizer.ts"));
});

afterAll(async () => {
  ssm?.destroy();
  await moto?.stop();
});

describe("voice authorizer (exported handler, moto SSM)", () => {
  beforeEach(() => {
    stderr = captureStderr();
  });

  afterEach(() => {
    stderr.restore();
  });

  // Order matters: failures are never cached, the token is (60 s).
  it("denies with store_failure, naming the setting, when CLIENT_TOKEN_PARAMETER is not set", async () => {
    const result = await handler(eventWith({ "X-Client-Token": TOKEN }));
    expect(effectOf(result)).toBe("Deny");
    expect(denials()).toEqual(["store_failure"]);
    expect(String(stderr.lines()[0]?.message)).toContain("CLIENT_TOKEN_PARAMETER");
  });

  it("denies with store_failure when the parameter does not exist", async () => {
    process.env.CLIENT_TOKEN_PARAMETER = PARAMETER;
    const result = await handler(eventWith({ "X-Client-Token": TOKEN }));
    expect(result.policyDocument).toEqual({
      Version: "2012-10-17",
      Statement: [{ Action: "execute-api:Invoke", Effect: "Deny", Resource: METHOD_ARN }],
    });
    expect(denials()).toEqual(["store_failure"]);
    expect(stderr.lines()[0]).toMatchObject({ level: "warn", error: "ClientTokenStoreError", requestId: "req-123" });
    expect(String(stderr.lines()[0]?.message)).toContain("ParameterNotFound");
  });

  it("allows the stored SecureString token (read with decryption) with an Allow policy on the method", async () => {
    await putToken(TOKEN);
    const result = await handler(eventWith({ "X-Client-Token": TOKEN, "Content-Type": "application/json" }));
    expect(result).toEqual({
      principalId: "voice-client",
      policyDocument: { Version: "2012-10-17", Statement: [{ Action: "execute-api:Invoke", Effect: "Allow", Resource: METHOD_ARN }] },
    });
    expect(denials()).toEqual([]);
  });

  it.each(["x-client-token", "X-CLIENT-TOKEN", "x-Client-Token"])("reads the header named %s", async (name) => {
    expect(effectOf(await handler(eventWith({ [name]: TOKEN })))).toBe("Allow");
  });

  it("reads the token from multiValueHeaders when headers is empty", async () => {
    const event = eventWith({});
    event.multiValueHeaders = { "x-client-token": [TOKEN] };
    expect(effectOf(await handler(event))).toBe("Allow");
  });

  it("denies a different token with token_mismatch", async () => {
    const result = await handler(eventWith({ "X-Client-Token": WRONG_TOKEN }));
    expect(effectOf(result)).toBe("Deny");
    expect(denials()).toEqual(["token_mismatch"]);
  });

  it.each([
    ["a prefix of the token", TOKEN.slice(0, -1)],
    ["the token plus a character", `${TOKEN}x`],
    ["the token in another case", TOKEN.toUpperCase()],
  ])("denies %s with token_mismatch", async (_label, presented) => {
    expect(effectOf(await handler(eventWith({ "X-Client-Token": presented })))).toBe("Deny");
    expect(denials()).toEqual(["token_mismatch"]);
  });

  it("denies a request without the header with missing_token", async () => {
    const result = await handler(eventWith({ "Content-Type": "application/json" }));
    expect(effectOf(result)).toBe("Deny");
    expect(denials()).toEqual(["missing_token"]);
  });

  it("treats an empty header as missing", async () => {
    expect(effectOf(await handler(eventWith({ "X-Client-Token": "" })))).toBe("Deny");
    expect(denials()).toEqual(["missing_token"]);
  });

  it("keeps using the cached token when the store fails later (60 s cache)", async () => {
    await ssm.send(new DeleteParameterCommand({ Name: PARAMETER }));
    expect(effectOf(await handler(eventWith({ "X-Client-Token": TOKEN })))).toBe("Allow");
    await putToken(TOKEN);
  });

  it("logs one structured JSON line per denial and never a token", async () => {
    await handler(eventWith({ "X-Client-Token": WRONG_TOKEN }));
    await handler(eventWith({}));
    const lines = stderr.lines().filter((line) => line.event === "request_denied");
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatchObject({ level: "warn", service: "voice-authorizer", sourceIp: "203.0.113.7" });
      expect(typeof line.time).toBe("string");
    }
    expect(stderr.raw()).not.toContain(TOKEN);
    expect(stderr.raw()).not.toContain(WRONG_TOKEN);
  });
});

let reads: number;
let clock: number;

function countingClient(): SSMClient {
  const client = new SSMClient({ region: moto.env.AWS_REGION });
  // Count GetParameter calls as they leave the SDK (the SDK's own middleware hook).
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === "GetParameterCommand") reads += 1;
      return next(args);
    },
    { step: "initialize" },
  );
  return client;
}

const silent: Logger & { denials: unknown[] } = {
  denials: [],
  info: () => {},
  debug: () => {},
  warn: (_event: string, fields?: Record<string, unknown>) => {
    silent.denials.push(fields?.denial);
  },
  error: () => {},
};

describe("SsmClientTokenStore (moto SSM, injected clock)", () => {
  beforeEach(async () => {
    reads = 0;
    clock = 1_000_000;
    silent.denials = [];
    await putToken("first-token-aaaaaaaaaaaaaaaa", ROTATION_PARAMETER);
  });

  it("returns the decrypted value, not moto's kms-prefixed ciphertext", async () => {
    const store = new SsmClientTokenStore({ client: countingClient(), parameterName: ROTATION_PARAMETER, now: () => clock });
    expect(await store.current()).toBe("first-token-aaaaaaaaaaaaaaaa");
  });

  it("serves the cached token for 60 s, then reads again", async () => {
    const store = new SsmClientTokenStore({ client: countingClient(), parameterName: ROTATION_PARAMETER, now: () => clock });
    expect(await store.current()).toBe("first-token-aaaaaaaaaaaaaaaa");
    await putToken("second-token-bbbbbbbbbbbbbbb", ROTATION_PARAMETER);
    clock += clientTokenCacheMs - 1;
    expect(await store.current()).toBe("first-token-aaaaaaaaaaaaaaaa");
    clock += 1;
    expect(await store.current()).toBe("second-token-bbbbbbbbbbbbbbb");
    expect(reads).toBe(2);
  });

  it("shares one read among concurrent cold requests", async () => {
    const store = new SsmClientTokenStore({ client: countingClient(), parameterName: ROTATION_PARAMETER, now: () => clock });
    const values = await Promise.all([store.current(), store.current(), store.current(), store.current()]);
    expect(new Set(values)).toEqual(new Set(["first-token-aaaaaaaaaaaaaaaa"]));
    expect(reads).toBe(1);
  });
});

describe("rotation through the authorizer (moto SSM, injected clock)", () => {
  beforeEach(async () => {
    reads = 0;
    clock = 1_000_000;
    silent.denials = [];
    await putToken("first-token-aaaaaaaaaaaaaaaa", ROTATION_PARAMETER);
  });

  const event = (token: string) => authorizerEvent({ headers: { "X-Client-Token": token } });

  it("accepts a rotated token once the cached copy is 5 s old, while the old one lasts until the cache expires", async () => {
    const store = new SsmClientTokenStore({ client: countingClient(), parameterName: ROTATION_PARAMETER, now: () => clock });
    const authorize = createClientTokenAuthorizer({ tokens: store, log: silent });
    const effect = async (token: string) => (await authorize(event(token))).policyDocument.Statement[0]?.Effect;

    expect(await effect("first-token-aaaaaaaaaaaaaaaa")).toBe("Allow");
    await putToken("second-token-bbbbbbbbbbbbbbb", ROTATION_PARAMETER);
    // Within 5 s of the last read, a mismatch does not hit the store again (bounds re-reads under attack).
    clock += 4_000;
    expect(await effect("second-token-bbbbbbbbbbbbbbb")).toBe("Deny");
    expect(reads).toBe(1);
    clock += 1_000;
    expect(await effect("second-token-bbbbbbbbbbbbbbb")).toBe("Allow");
    expect(reads).toBe(2);
    expect(await effect("first-token-aaaaaaaaaaaaaaaa")).toBe("Deny");
    expect(silent.denials).toEqual(["token_mismatch", "token_mismatch"]);
  });
});
