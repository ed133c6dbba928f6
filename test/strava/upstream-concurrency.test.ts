/**
 * The upstream client sends at most `maxConcurrentRequests` calls at once; the rest wait their turn
 * before anything is built or sent, and a call cancelled while it waits never reaches the network.
 * The upstream is a real local server that counts the requests it has open.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fileBackedCore } from "../support/core-harness.ts";

let server: Server;
let base: string;
let open = 0;
let mostOpen = 0;
let received = 0;

beforeAll(async () => {
  server = createServer((_request, response) => {
    received++;
    open++;
    mostOpen = Math.max(mostOpen, open);
    setTimeout(() => {
      open--;
      response.writeHead(200, { "content-type": "application/json" }).end('{"id":7,"resource_state":3}');
    }, 40);
  });
  await once(server.listen(0, "127.0.0.1"), "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  open = 0;
  mostOpen = 0;
  received = 0;
});

const credentials = { client_id: "1", client_secret: "s", refresh_token: "r", access_token: "a", expires_at: 4_000_000_000 };

describe("concurrent upstream calls", () => {
  it("never has more than maxConcurrentRequests open; every call still gets its answer", async () => {
    const core = await fileBackedCore({ credentials, settings: { apiBase: base }, maxConcurrentRequests: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => core.call("get_athlete", {})));
    expect(results.every((result) => !result.isError && result.content[0].text === '{"id":7,"resource_state":3}')).toBe(true);
    expect(received).toBe(10);
    expect(mostOpen).toBe(3);
    await core.cleanup();
  });

  it("a call cancelled while it waits for its turn is never sent", async () => {
    const core = await fileBackedCore({ credentials, settings: { apiBase: base }, maxConcurrentRequests: 1 });
    const first = core.call("get_athlete", {});
    const cancel = new AbortController();
    const second = core.call("get_athlete", {}, cancel.signal);
    cancel.abort();
    expect((await first).isError).toBeUndefined();
    const cancelled = await second;
    expect(cancelled.isError).toBe(true);
    expect(cancelled.content[0].text).toBe("Error: The call was cancelled before GET /athlete was sent.");
    expect(received).toBe(1);
    await core.cleanup();
  });
});
