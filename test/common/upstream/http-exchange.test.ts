/**
 * The core's network seam (common/upstream/http-exchange.ts) against real local servers: gzip answers inflated,
 * cut-off bodies and unknown encodings refused as network failures, timeouts and cancellations named,
 * and no more connections per origin than allowed.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpSender, HttpExchangeError, type HttpRequest } from "../../../common/upstream/http-exchange.ts";

const body = JSON.stringify({ id: 16012345678, segment_efforts: [{ id: "3456789012345678901" }], name: "é ride" });
let server: Server;
let origin: string;
let open = 0;
let mostOpen = 0;
const sockets = new Set<unknown>();

const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  "/gzip": (request, response) => {
    response.writeHead(200, {
      "content-type": "application/json",
      "content-encoding": "gzip",
      "x-asked": String(request.headers["accept-encoding"]),
    });
    response.end(gzipSync(body));
  },
  "/plain": (_request, response) => response.writeHead(200, { "content-type": "application/json", "x-ratelimit-usage": "1,2" }).end(body),
  "/cut-length": (_request, response) => {
    response.writeHead(200, { "content-length": String(body.length) });
    response.write(body.slice(0, 10), () => response.socket?.destroy());
  },
  "/cut-chunked": (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.write(body.slice(0, 10), () => response.socket?.destroy());
  },
  "/compress": (_request, response) => response.writeHead(200, { "content-encoding": "compress" }).end("xx"),
  "/slow": (_request, response) => setTimeout(() => response.end(body), 2_000).unref(),
  "/held": (_request, response) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    setTimeout(() => {
      open--;
      response.end(body);
    }, 50);
  },
};

beforeAll(async () => {
  server = createServer((request, response) => routes[request.url ?? ""]?.(request, response));
  server.on("connection", (socket) => sockets.add(socket));
  await once(server.listen(0, "127.0.0.1"), "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

const send = createHttpSender();
const get = (path: string, more: Partial<HttpRequest> = {}) =>
  send({ method: "GET", url: origin + path, headers: {}, timeoutMs: 5_000, ...more });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a failure"),
    (error: unknown) => error as HttpExchangeError,
  );

describe("http exchange", () => {
  it("asks for gzip and gives the inflated text; headers come with lower-case names", async () => {
    const answer = await get("/gzip");
    expect(answer).toMatchObject({ status: 200, bodyText: body });
    expect(answer.headers["x-asked"]).toBe("gzip");
    expect((await get("/plain")).headers["x-ratelimit-usage"]).toBe("1,2");
  });

  it("a body cut off before its declared length or its last chunk is a network failure, never a short answer", async () => {
    for (const path of ["/cut-length", "/cut-chunked"]) {
      const error = await failure(get(path));
      expect(error).toBeInstanceOf(HttpExchangeError);
      expect(error).toMatchObject({ kind: "network" });
      expect(error.detail).toMatch(/closed before the answer was complete/);
    }
  });

  it("an encoding it did not ask for is refused", async () => {
    expect(await failure(get("/compress"))).toMatchObject({
      kind: "network",
      detail: 'the answer is encoded as "compress", which was not asked for',
    });
  });

  it("names a timeout and a cancellation apart", async () => {
    expect(await failure(get("/slow", { timeoutMs: 200 }))).toMatchObject({ kind: "timeout", detail: "no complete answer within 200 ms" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await failure(get("/slow", { signal: controller.signal }))).toMatchObject({ kind: "cancelled" });
  });

  it("opens at most connectionsPerOrigin connections; the other requests wait for one", async () => {
    const bounded = createHttpSender({ connectionsPerOrigin: 3 });
    sockets.clear();
    mostOpen = 0;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => bounded({ method: "GET", url: `${origin}/held`, headers: {}, timeoutMs: 5_000 })),
    );
    expect(answers.every((answer) => answer.bodyText === body)).toBe(true);
    expect(mostOpen).toBe(3);
    expect(sockets.size).toBe(3);
  });

  it("a refused connection names the cause", async () => {
    const closed = createServer();
    await once(closed.listen(0, "127.0.0.1"), "listening");
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    closed.close();
    expect(await failure(send({ method: "GET", url, headers: {}, timeoutMs: 5_000 }))).toMatchObject({
      kind: "network",
      detail: "connection refused (ECONNREFUSED)",
    });
  });
});
