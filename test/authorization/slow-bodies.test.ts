/**
 * Slow bodies on the endpoints anybody may call without a token, through the real server over HTTP on raw
 * sockets: a body that has not arrived 10 s after its headers gets its connection closed (not 2 minutes
 * later, at the request timeout), on every such endpoint, while `/mcp` keeps its own, longer rules for
 * uploads; and clients that leave halfway through a body are counted in one log line, not logged one by one.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualOAuthClient } from "../support/manual-oauth-client.ts";
import { startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";

let server: OAuthServer;
let port: number;
let accessToken = "";

beforeAll(async () => {
  server = await startOAuthServer();
  port = Number(new URL(server.issuer).port);
  const client = new ManualOAuthClient(server.issuer);
  await client.register();
  const { code, verifier } = await client.code();
  accessToken = String((await client.exchange(code, verifier)).body["access_token"]);
});

afterAll(async () => {
  await server?.stop();
});

interface Trickle {
  socket: Socket;
  /** Milliseconds from the headers to the server closing the connection. */
  closed: Promise<number>;
  isOpen(): boolean;
  received(): string;
}

/** Sends the headers and the first bytes of a body that never ends. */
function trickle(path: string, contentType: string, headers: Record<string, string> = {}): Trickle {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  let open = true;
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  const started = performance.now();
  const closed = new Promise<number>((resolve) =>
    socket.once("close", () => {
      open = false;
      resolve(performance.now() - started);
    }),
  );
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\nContent-Length: 4000\r\n${extra}\r\n`);
  socket.write("a=");
  return { socket, closed, isOpen: () => open, received: () => received };
}

function events(name: string): Record<string, unknown>[] {
  return server.child.stderrLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line["event"] === name);
}

describe("bodies on the unauthenticated endpoints have a deadline", () => {
  it(
    "a body that trickles is cut off at 10 s on /token, /register, /revoke, POST /authorize and the webhook, and /mcp is left alone",
    { timeout: 40_000 },
    async () => {
      const form = "application/x-www-form-urlencoded";
      // The webhook's first, so that its cut-off is the one logged in full (the rest are counted).
      const webhook = trickle(new URL(server.webhookUrl()).pathname, "application/json");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const unauthenticated = [
        webhook,
        trickle("/token", form),
        trickle("/register", "application/json"),
        trickle("/revoke", form),
        trickle("/authorize", form),
      ];
      const upload = trickle("/mcp", "application/json", {
        authorization: `Bearer ${accessToken}`,
        accept: "application/json, text/event-stream",
      });
      const closedAfter = await Promise.all(
        unauthenticated.map((exchange) =>
          Promise.race([exchange.closed, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 25_000))]),
        ),
      );
      for (const ms of closedAfter) {
        // Not before the deadline (a slow honest client gets its 10 s), and long before the 120 s request timeout.
        expect(ms).toBeGreaterThanOrEqual(9_500);
        expect(ms).toBeLessThan(20_000);
      }
      expect(upload.isOpen()).toBe(true);
      // Other clients are served as ever.
      expect((await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)).status).toBe(200);
      const cut = events("http_body_incomplete");
      expect(cut.length).toBeGreaterThanOrEqual(1);
      expect(cut[0]).toMatchObject({ reason: "deadline", deadline_s: 10 });
      expect(events("http_internal_error")).toEqual([]);
      // The webhook's address is a secret: its cut-off is logged without it.
      expect(cut[0]).toMatchObject({ path: "/strava/webhook/(secret)" });
      const secret = server.webhookUrl().split("/").at(-1) as string;
      expect(server.child.stderrLines.filter((line) => line.includes(secret))).toEqual([]);
      // The upload may still finish: it is answered (a body that is not JSON-RPC) on its connection.
      upload.socket.write("x".repeat(3_998));
      for (let waited = 0; !upload.received().includes("HTTP/1.1 ") && waited < 5_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(upload.received()).toMatch(/^HTTP\/1\.1 400 /);
      upload.socket.destroy();
      for (const exchange of unauthenticated) exchange.socket.destroy();
    },
  );

  it("clients that leave halfway through a body are counted, not logged a line each", async () => {
    const before = server.child.stderrLines.length;
    const leaving = Array.from({ length: 20 }, () => trickle("/token", "application/x-www-form-urlencoded"));
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const exchange of leaving) exchange.socket.destroy();
    await Promise.all(leaving.map((exchange) => exchange.closed));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = server.child.stderrLines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line["level"] === "error")).toEqual([]);
    expect(lines.filter((line) => line["event"] === "http_body_incomplete").length).toBeLessThanOrEqual(1);
  });
});
