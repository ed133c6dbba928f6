/**
 * Whether a log's address is the log or the sandbox (mcp-adapter/upstream-kind.ts): the log's own hosts are
 * taken as they are, without a request; another address is asked once, and only the sandbox's mark makes it the
 * sandbox (a fake or a proxy in front of the log stays the log).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { upstreamKindAt } from "../../mcp-adapter/upstream-kind.ts";

let sandbox: RunningSandbox;
let plain: Server;
let plainBase: string;
let plainRequests = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ host: "127.0.0.1", port: 0 });
  plain = createServer((_req, res) => {
    plainRequests++;
    res.writeHead(401, { "content-type": "application/json" }).end('{"status":401,"error":"Unauthorized"}');
  });
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  plainBase = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  await sandbox.close();
  await new Promise<void>((resolve) => plain.close(() => resolve()));
});

describe("the upstream's kind", () => {
  test("the sandbox's faces are the sandbox, whichever log they play", async () => {
    expect(await upstreamKindAt(sandbox.apiBase, "strava")).toBe("sandbox");
    expect(await upstreamKindAt(sandbox.intervalsApiBase, "intervals.icu")).toBe("sandbox");
  });

  test("another server at a non-default address is the log itself", async () => {
    expect(await upstreamKindAt(plainBase, "intervals.icu")).toBe("intervals.icu");
    expect(await upstreamKindAt(plainBase, "strava")).toBe("strava");
    expect(plainRequests).toBe(2);
  });

  test("the logs' own hosts are taken without a request", async () => {
    const before = plainRequests;
    expect(await upstreamKindAt("https://www.strava.com/api/v3", "strava")).toBe("strava");
    expect(await upstreamKindAt("https://intervals.icu/api/v1", "intervals.icu")).toBe("intervals.icu");
    expect(plainRequests).toBe(before);
  });
});
