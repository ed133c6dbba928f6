/**
 * The MCP server's HTTP edge against clients that mean harm or are broken, on raw sockets:
 * - a refused request (wrong bearer, foreign Host, wrong Content-Type, too large) gets its answer and a
 *   closed connection, and its body is not read (a body that never ends cannot keep the server busy);
 * - Expect: 100-continue with a wrong bearer is refused before the client sends its body;
 * - request bodies in memory are bounded: a body that does not fit the budget waits unread, everyday
 *   calls keep flowing beside it, and one that waits too long is refused (503);
 * - a connection cap and a header timeout keep slow connections from taking every file descriptor, and
 *   neither touches a legitimate client's kept-alive connection;
 * - one address holds at most 256 connections (a sixteenth of the cap): its next ones are closed at once,
 *   and other addresses are served (connections from 127.0.0.2 and 127.0.0.3, real sockets);
 * - failures are logged a line per interval, not a line each.
 * The first group runs the server as a child process, as an operator does; the limits are tried on a
 * server in this process with small limits, so the test need not open thousands of connections.
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { BodyBudget } from "../../mcp-adapter/http/body-budget.ts";
import { createRateLimitedLog } from "../../common/rate-limited-log.ts";
import { LeanHttpClient } from "../../bench/lean-http-client.ts";
import { capturingLogger } from "../support/core-harness.ts";
import { startInProcessMcp, type InProcessMcp } from "../support/in-process-mcp.ts";
import { sandboxEnv, scratchDirectory, spawnMcpChild, type McpChild } from "../mcp-adapter/mcp-child.ts";

const authToken = `hostile-${randomBytes(16).toString("hex")}`;
const listBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

let sandbox: RunningSandbox;

beforeAll(async () => {
  const plenty: [number, number] = [1_000_000, 10_000_000];
  sandbox = await startSandbox({ rateLimits: { overall: plenty, read: plenty } });
});
afterAll(async () => {
  await sandbox?.close();
});

interface RawExchange {
  /** Everything the server sent. */
  readonly received: () => string;
  /** Bytes this client managed to hand to the socket. */
  readonly sent: () => number;
  /** Resolves with the milliseconds from connect to the server closing the connection. */
  readonly closed: Promise<number>;
  readonly socket: Socket;
}

/** Sends `head` (request line and headers), then, while `streamBody`, 64 KiB chunks as fast as the socket takes them. */
function rawExchange(port: number, head: string, streamBody: boolean, from?: string): RawExchange {
  const socket = connect({ port, host: "127.0.0.1", ...(from ? { localAddress: from } : {}) });
  const started = performance.now();
  let received = "";
  let sent = 0;
  let open = true;
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) =>
    socket.once("close", () => {
      open = false;
      resolve(performance.now() - started);
    }),
  );
  const chunk = Buffer.alloc(64 * 1024, "A");
  const pump = (): void => {
    while (open && streamBody) {
      sent += chunk.length;
      if (!socket.write(chunk)) {
        socket.once("drain", pump);
        return;
      }
    }
  };
  // Written at once: the socket sends it first, once connected.
  socket.write(head);
  socket.once("connect", pump);
  return { received: () => received, sent: () => sent, closed, socket };
}

function requestHead(options: {
  host?: string;
  authorization?: string;
  contentType?: string;
  contentLength: number;
  extra?: string;
}): string {
  return (
    "POST /mcp HTTP/1.1\r\n" +
    `Host: ${options.host ?? "127.0.0.1"}\r\n` +
    "Accept: application/json, text/event-stream\r\n" +
    `Content-Type: ${options.contentType ?? "application/json"}\r\n` +
    (options.authorization ? `Authorization: ${options.authorization}\r\n` : "") +
    `Content-Length: ${options.contentLength}\r\n` +
    (options.extra ?? "") +
    "\r\n"
  );
}

describe("refusals close the connection without reading the body (server as a child process)", () => {
  let server: McpChild;
  let scratch: ReturnType<typeof scratchDirectory>;
  let port: number;

  beforeAll(async () => {
    scratch = scratchDirectory();
    server = spawnMcpChild({ env: sandboxEnv(sandbox, { authToken, tokenDirectory: scratch.path }) });
    port = Number((await server.waitForEvent("listening"))["port"]);
  });
  afterAll(async () => {
    await server?.stop();
    scratch?.remove();
  });

  const endless = 4_000_000_000;
  it.each([
    ["a wrong bearer token", "401", { authorization: "Bearer not-the-token", contentLength: endless }],
    ["no bearer token", "401", { contentLength: endless }],
    ["a foreign Host (DNS rebinding)", "403", { host: "evil.example", authorization: `Bearer ${authToken}`, contentLength: endless }],
    [
      "a valid token but Content-Type text/plain",
      "415",
      { authorization: `Bearer ${authToken}`, contentType: "text/plain", contentLength: endless },
    ],
    ["a valid token and a declared length over 40 MiB", "413", { authorization: `Bearer ${authToken}`, contentLength: endless }],
  ] as const)(
    "%s with a 4 GB body that keeps coming: answered %s in full, connection closed, body not read",
    async (_label, status, head) => {
      const exchange = rawExchange(port, requestHead(head), true);
      const closedAfterMs = await Promise.race([
        exchange.closed,
        new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 5_000)),
      ]);
      exchange.socket.destroy();
      // The whole answer arrived although this client never stopped sending (it does not even read
      // until it is blocked): the server closed its side and stopped reading instead of resetting.
      expect(exchange.received()).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(exchange.received().toLowerCase()).toContain("connection: close");
      expect(exchange.received()).toMatch(/\r\n\r\n\{.*\}$/s);
      // Reset after the linger (1 s), since this client never closes.
      expect(closedAfterMs).toBeLessThan(3_000);
      // What the kernel's socket buffers absorb before the close, not the body: reading it at loopback
      // speed would have taken gigabytes in this time.
      expect(exchange.sent()).toBeLessThan(32 * 1024 * 1024);
    },
  );

  it("Expect: 100-continue with a wrong bearer token is refused before the body is sent", async () => {
    const exchange = rawExchange(
      port,
      requestHead({ authorization: "Bearer wrong", contentLength: 30_000_000, extra: "Expect: 100-continue\r\n" }),
      false,
    );
    await exchange.closed;
    expect(exchange.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(exchange.received()).not.toContain("100 Continue");
  });

  it("the valid-token path still answers Expect: 100-continue and reads the body", async () => {
    const exchange = rawExchange(
      port,
      requestHead({ authorization: `Bearer ${authToken}`, contentLength: Buffer.byteLength(listBody), extra: "Expect: 100-continue\r\n" }),
      false,
    );
    for (let waited = 0; !exchange.received().includes("100 Continue") && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exchange.received()).toMatch(/^HTTP\/1\.1 100 Continue/);
    exchange.socket.write(listBody);
    for (let waited = 0; !exchange.received().includes('"tools"') && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exchange.received()).toContain("HTTP/1.1 200 OK");
    exchange.socket.destroy();
  });

  it("the server stayed healthy, and the refusals above left one log line per kind (the rest are counted)", async () => {
    const health = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${authToken}` } });
    expect(health.status).toBe(200);
    const count = (event: string): number => server.stderrLines.filter((line) => line.includes(`"event":"${event}"`)).length;
    expect(count("http_unauthorized")).toBe(1);
    expect(count("http_forbidden")).toBe(1);
  });
});

describe("bounded body bytes (server in this process, a 3 MiB budget, 1 s wait)", () => {
  let server: InProcessMcp;
  const budget = new BodyBudget({ capacity: 3 * 1024 * 1024, maxWaitMs: 1_000 });
  let port: number;

  beforeAll(async () => {
    server = await startInProcessMcp(sandbox, { authToken, budget });
    port = Number(new URL(server.mcpUrl).port);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a body that does not fit waits unread, an everyday call goes past it, and the waiting one gets 503 when its wait is over", async () => {
    const twoMiB = 2 * 1024 * 1024;
    const padded = (id: number): string => {
      const envelope = JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "get_athlete", arguments: { pad: "" } },
      });
      return envelope.replace('"pad":""', `"pad":"${"A".repeat(twoMiB - envelope.length)}"`);
    };
    const firstBody = padded(1);
    const head = (body: string) => requestHead({ authorization: `Bearer ${authToken}`, contentLength: Buffer.byteLength(body) });

    // The first large body: half of it sent, then the client stalls. It holds 2 MiB of the budget.
    const first = rawExchange(port, head(firstBody), false);
    first.socket.write(firstBody.slice(0, twoMiB / 2));
    for (let waited = 0; budget.used < twoMiB && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(budget.used).toBe(twoMiB);

    // A second one does not fit (2 + 2 > 3 MiB): it waits, unread.
    const second = rawExchange(port, head(padded(2)), false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(budget.used).toBe(twoMiB);

    // An everyday call fits beside the first and is answered at once.
    const client = new LeanHttpClient(new URL(server.mcpUrl).origin, 1);
    const started = performance.now();
    const listed = await client.send({
      method: "POST",
      path: "/mcp",
      headers: { authorization: `Bearer ${authToken}`, accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: listBody,
    });
    expect(listed.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(900);
    client.close();

    // The second one's wait runs out: 503, Retry-After, connection closed.
    const secondClosedAfter = await second.closed;
    expect(second.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(second.received().toLowerCase()).toContain("retry-after: 5");
    expect(secondClosedAfter).toBeGreaterThan(900);

    // The first finishes its body and is answered (a tool error: `pad` is no argument of get_athlete).
    first.socket.write(firstBody.slice(twoMiB / 2));
    for (let waited = 0; !first.received().includes("pad") && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const body = first.received().slice(first.received().indexOf("\r\n\r\n") + 4);
    expect(first.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(body).toContain("pad");
    first.socket.destroy();
    for (let waited = 0; budget.used > 0 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(budget.used).toBe(0);
  });
});

describe("connection cap and header timeout (server in this process: 16 connections, headers within 1 s)", () => {
  let server: InProcessMcp;
  let port: number;
  const { logger, lines } = capturingLogger();

  beforeAll(async () => {
    server = await startInProcessMcp(sandbox, {
      authToken,
      logger,
      limits: { maxConnections: 16, maxConnectionsPerSource: 16, headersTimeoutMs: 1_000, requestTimeoutMs: 5_000 },
    });
    port = Number(new URL(server.mcpUrl).port);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("slow connections beyond the cap are dropped at once, the rest cut after the header timeout; a kept-alive client is untouched throughout", async () => {
    const legitimate = new LeanHttpClient(`http://127.0.0.1:${port}`, 1);
    const call = async (): Promise<number> =>
      (
        await legitimate.send({
          method: "POST",
          path: "/mcp",
          headers: {
            authorization: `Bearer ${authToken}`,
            accept: "application/json, text/event-stream",
            "content-type": "application/json",
          },
          body: listBody,
        })
      ).status;
    expect(await call()).toBe(200);

    // 40 connections that start their headers and never finish them.
    const slow = Array.from({ length: 40 }, () => rawExchange(port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n", false));
    const closedTimes = slow.map((exchange) => exchange.closed);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The ones past the cap (16 minus the kept-alive client's) were closed on arrival.
    const early = (await Promise.all(closedTimes.map((closed) => Promise.race([closed, Promise.resolve(Infinity)])))).filter(
      (time) => time < 300,
    );
    expect(early.length).toBeGreaterThanOrEqual(40 - 15);
    // The kept-alive client still works while the slow ones hold the rest.
    expect(await call()).toBe(200);

    // Idle longer than the header timeout: its connection is not cut for that (only incomplete headers are).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await call()).toBe(200);

    // Every slow connection is gone within the timeout and a check interval.
    const times = await Promise.all(closedTimes);
    expect(Math.max(...times)).toBeLessThan(3_500);
    const cut = slow.filter((exchange) => exchange.received().startsWith("HTTP/1.1 408"));
    expect(cut.length).toBeGreaterThan(0);
    // And a new client gets in.
    const fresh = new LeanHttpClient(`http://127.0.0.1:${port}`, 1);
    expect((await fresh.send({ method: "GET", path: "/health", headers: { authorization: `Bearer ${authToken}` } })).status).toBe(200);
    fresh.close();
    legitimate.close();

    const dropped = lines.filter((line) => line.includes('"event":"http_connection_dropped"'));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toContain('"max_connections":16');
  });
});

describe("connections per address (server as a child process, as an operator runs it)", () => {
  let server: McpChild;
  let scratch: ReturnType<typeof scratchDirectory>;
  let port: number;

  beforeAll(async () => {
    scratch = scratchDirectory();
    server = spawnMcpChild({ env: sandboxEnv(sandbox, { authToken, tokenDirectory: scratch.path }) });
    port = Number((await server.waitForEvent("listening"))["port"]);
  });
  afterAll(async () => {
    await server?.stop();
    scratch?.remove();
  });

  it("one address holds at most 256 connections: the rest of its 300 are closed at once, while another address is served", async () => {
    // 300 connections from 127.0.0.2 that start their headers and never finish them (held until the header timeout).
    const held = Array.from({ length: 300 }, () => rawExchange(port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n", false, "127.0.0.2"));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const early = (await Promise.all(held.map((exchange) => Promise.race([exchange.closed, Promise.resolve(Infinity)])))).filter(
      (time) => time < 1_000,
    );
    expect(early.length).toBe(300 - 256);
    // Another address is served meanwhile.
    const other = rawExchange(
      port,
      `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${authToken}\r\nConnection: close\r\n\r\n`,
      false,
      "127.0.0.3",
    );
    await other.closed;
    expect(other.received()).toMatch(/^HTTP\/1\.1 200 /);
    for (const exchange of held) exchange.socket.destroy();
    const dropped = await server.waitForEvent("http_connection_dropped", 5_000, (line) => line["reason"] === "per_source");
    expect(dropped).toMatchObject({ level: "warn", per_source: 256, remote: "127.0.0.2" });
  });
});

describe("rate-limited failure log", () => {
  it("logs the first failure at once, counts the rest into one line per interval, and starts over after a quiet interval", async () => {
    const { logger, lines } = capturingLogger();
    const log = createRateLimitedLog({ logger, event: "http_unauthorized", intervalMs: 200 });
    for (let index = 0; index < 1_000; index++) log.record(index % 4 === 0 ? "missing" : "invalid_token", { path: "/mcp" });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ event: "http_unauthorized", reason: "missing", path: "/mcp" });
    await new Promise((resolve) => setTimeout(resolve, 260));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      event: "http_unauthorized",
      repeated: { missing: 249, invalid_token: 750 },
      interval_s: 0.2,
    });
    await new Promise((resolve) => setTimeout(resolve, 260));
    expect(lines).toHaveLength(2);
    log.record("invalid_token");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2]!)).toMatchObject({ reason: "invalid_token" });
    log.flush();
  });
});
