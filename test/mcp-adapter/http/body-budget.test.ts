/**
 * The body budget (mcp-adapter/http/body-budget.ts): request body bytes in memory at once are bounded. A body
 * reserves its declared length before a byte is read (a chunked one chunk by chunk); while the budget is spent
 * further bodies wait unread, in arrival order, and one that waits longer than `maxWaitMs` (or whose client
 * leaves) gets nothing. Requests that fit go ahead of a large one that does not.
 */
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { BodyBudget, defaultBodyBudgetBytes, maxRequestBodyBytes, meteredRequest } from "../../../mcp-adapter/http/body-budget.ts";
import { rawRequest, serveInProcess, type NodeHttpServer } from "../../support/node-http-server.ts";

const servers: NodeHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("the budget", () => {
  it("is one largest body (40 MiB) plus room for everyday calls by default", () => {
    const budget = new BodyBudget();
    expect(maxRequestBodyBytes).toBe(40 * 1024 * 1024);
    expect(budget.capacity).toBe(defaultBodyBudgetBytes);
    expect(budget.capacity).toBeGreaterThan(maxRequestBodyBytes);
    expect(budget.maxWaitMs).toBe(30_000);
  });

  it("reserves what fits at once, never more than its capacity, and gives back on release", () => {
    const budget = new BodyBudget({ capacity: 100 });
    expect(budget.tryReserve(60)).toBe(true);
    expect(budget.tryReserve(50)).toBe(false);
    expect(budget.used).toBe(60);
    budget.release(60);
    expect(budget.tryReserve(100)).toBe(true);
    budget.release(100);
    expect(budget.used).toBe(0);
  });

  it("grants waiting reservations in arrival order as room comes back, and lets a small one past a large one that does not fit yet", async () => {
    const budget = new BodyBudget({ capacity: 100 });
    budget.tryReserve(90);
    const order: string[] = [];
    const large = budget.reserve(80, new AbortController().signal).then((granted) => order.push(`large ${granted}`));
    const small = budget.reserve(10, new AbortController().signal).then((granted) => order.push(`small ${granted}`));
    // Nobody jumps the queue with tryReserve while others wait.
    expect(budget.tryReserve(1)).toBe(false);
    budget.release(70); // 20 used: the large one (80) does not fit yet, the small one does
    await small;
    expect(order).toEqual(["small true"]);
    budget.release(20); // 10 used: the large one fits now
    await large;
    expect(order).toEqual(["small true", "large true"]);
    expect(budget.used).toBe(90);
  });

  it("never grants a reservation larger than the whole budget, and drops one whose wait was aborted", async () => {
    const budget = new BodyBudget({ capacity: 100 });
    expect(await budget.reserve(101, new AbortController().signal)).toBe(false);
    budget.tryReserve(100);
    const left = new AbortController();
    const waiting = budget.reserve(50, left.signal);
    left.abort();
    expect(await waiting).toBe(false);
    budget.release(100);
    expect(budget.used).toBe(0);
    expect(await budget.reserve(10, AbortSignal.abort())).toBe(true);
  });
});

describe("a metered request", () => {
  /** A server whose listener meters each request against `budget` and reports what it reserved while reading. */
  async function meteringServer(budget: BodyBudget): Promise<NodeHttpServer> {
    const server = await serveInProcess((request: IncomingMessage, response) => {
      void (async () => {
        const metered = await meteredRequest(request, budget, new AbortController().signal);
        if (metered === undefined) {
          response.writeHead(503).end("over budget");
          return;
        }
        let bytes = 0;
        let most = 0;
        for await (const chunk of metered.request) {
          bytes += (chunk as Buffer).length;
          most = Math.max(most, budget.used);
        }
        metered.release();
        metered.release(); // a second release gives back nothing more
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ bytes, most, after: budget.used }));
      })();
    });
    servers.push(server);
    return server;
  }

  it("reserves a declared length before reading, and gives it all back once", async () => {
    const budget = new BodyBudget({ capacity: 1_000 });
    const server = await meteringServer(budget);
    const answer = await rawRequest(server.port, {
      method: "POST",
      path: "/",
      headers: { "content-length": 300 },
      chunks: ["x".repeat(300)],
    });
    expect(JSON.parse(answer.body)).toEqual({ bytes: 300, most: 300, after: 0 });
  });

  it("reserves a chunked body chunk by chunk as it arrives", async () => {
    const budget = new BodyBudget({ capacity: 1_000 });
    const server = await meteringServer(budget);
    const answer = await rawRequest(server.port, {
      method: "POST",
      path: "/",
      headers: { "transfer-encoding": "chunked" },
      chunks: ["a".repeat(100), "b".repeat(200), "c".repeat(50)],
      gapMs: 20,
    });
    expect(JSON.parse(answer.body)).toEqual({ bytes: 350, most: 350, after: 0 });
  });

  it("gets nothing when the budget stays spent for longer than its wait", async () => {
    const budget = new BodyBudget({ capacity: 100, maxWaitMs: 50 });
    budget.tryReserve(100);
    const server = await meteringServer(budget);
    const answer = await rawRequest(server.port, {
      method: "POST",
      path: "/",
      headers: { "content-length": 10 },
      chunks: ["x".repeat(10)],
    });
    expect(answer.status).toBe(503);
  });
});
