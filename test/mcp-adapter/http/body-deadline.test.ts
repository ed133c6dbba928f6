/**
 * The body deadline (mcp-adapter/http/body-deadline.ts) of requests anybody may send without a token: a body
 * that has not fully arrived in time gets its request destroyed with its socket (the connection is freed, not
 * merely left unread), `onCut` says so once, and the reader sees a BodyDeadlineError. A body that arrives in time,
 * or one already complete, is left alone. Here with a short deadline; the 10 s the OAuth routes use is
 * test/authorization/slow-bodies.test.ts.
 */
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { BodyDeadlineError, enforceBodyDeadline, unauthenticatedBodyDeadlineMs } from "../../../mcp-adapter/http/body-deadline.ts";
import { rawRequest, serveInProcess, type NodeHttpServer } from "../../support/node-http-server.ts";

const servers: NodeHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server that holds each request's body to `deadlineMs` and records what happened to it. */
async function deadlineServer(deadlineMs: number) {
  const seen: { cuts: number; errors: unknown[]; bodies: string[] } = { cuts: 0, errors: [], bodies: [] };
  const server = await serveInProcess((request: IncomingMessage, response) => {
    enforceBodyDeadline(request, deadlineMs, () => seen.cuts++);
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("error", (error) => seen.errors.push(error));
    request.on("end", () => {
      seen.bodies.push(body);
      response.writeHead(200).end("read");
    });
  });
  servers.push(server);
  return { server, seen };
}

describe("the body deadline", () => {
  it("is 10 s for the endpoints anybody may call", () => {
    expect(unauthenticatedBodyDeadlineMs).toBe(10_000);
  });

  it("cuts a body that trickles: the request and its connection are destroyed, and it is said once", async () => {
    const { server, seen } = await deadlineServer(150);
    const started = performance.now();
    const outcome = await rawRequest(server.port, {
      method: "POST",
      path: "/token",
      headers: { "content-length": 1_000 },
      chunks: Array.from({ length: 50 }, () => "x"),
      gapMs: 40,
    }).then(
      () => "answered",
      (error: NodeJS.ErrnoException) => error.code,
    );
    expect(outcome).toMatch(/ECONNRESET|EPIPE/);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(seen.cuts).toBe(1);
    expect(seen.errors[0]).toBeInstanceOf(BodyDeadlineError);
    expect((seen.errors[0] as Error).message).toBe("The request body did not arrive within 0.15 s.");
    expect(seen.bodies).toEqual([]);
  });

  it("leaves a body that arrives in time alone", async () => {
    const { server, seen } = await deadlineServer(300);
    const answer = await rawRequest(server.port, {
      method: "POST",
      path: "/token",
      headers: { "content-length": 3 },
      chunks: ["a", "b", "c"],
      gapMs: 20,
    });
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(seen).toEqual({ cuts: 0, errors: [], bodies: ["abc"] });
  });
});
