/**
 * sandbox/server/request-handler.ts in this process: a client that hangs up in the middle of its body is not the
 * sandbox's failure (nothing logged, the sandbox goes on serving), and each path goes to its side: the controls, the
 * intervals.icu face, Strava's.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { openSession, type SandboxSession } from "../sandbox-client.ts";

let s: SandboxSession;
beforeAll(async () => {
  s = await openSession();
});
afterAll(async () => {
  await s.sandbox.close();
});

describe("the sandbox's request handler", () => {
  test("a client hanging up mid-upload: nothing logged, the next request served", async () => {
    const written = vi.spyOn(process.stderr, "write");
    const token = await s.token();
    await new Promise<void>((resolve) => {
      const outgoing = request(`${s.sandbox.apiBase}/uploads`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "multipart/form-data; boundary=x", "Content-Length": "100000" },
      });
      outgoing.on("error", () => resolve());
      outgoing.write(Buffer.alloc(1000, 97), () => {
        outgoing.destroy();
        setTimeout(resolve, 100);
      });
    });
    expect((await s.get("/athlete", token)).status).toBe(200);
    expect(written.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("sandbox_request_failed"))).toEqual([]);
    written.mockRestore();
  });

  test("each path goes to its side: controls, the intervals.icu face, Strava's API", async () => {
    s.sandbox.resetCounters();
    expect((await fetch(`${s.sandbox.baseUrl}/_sandbox/counters`)).status).toBe(200);
    expect((await fetch(`${s.sandbox.intervalsApiBase}/athlete/0`)).status).toBe(401);
    expect((await s.get("/athlete")).status).toBe(200);
    expect(s.sandbox.counters().byRoute).toEqual({ "intervals.icu GET /athlete/{id}": 1, "GET /athlete": 1 });
  });
});
