/**
 * 10,000 tool calls at concurrency 64 through POST /mcp against the sandbox: zero failures, and
 * memory back at its baseline afterwards. The server runs in this process so that a full garbage
 * collection can be forced before each measurement: the V8 heap in use after collection is the
 * honest leak signal (resident memory alone mostly shows how big V8 chose to let its heap grow).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { LeanHttpClient } from "../../bench/lean-http-client.ts";
import { garbageCollector, startInProcessMcp, type InProcessMcp } from "../support/in-process-mcp.ts";
import { jsonRpcReply } from "../support/mcp-replies.ts";

let collectGarbage: () => void;
let sandbox: RunningSandbox;
let server: InProcessMcp;
let http: LeanHttpClient;
let headers: Record<string, string>;

beforeAll(async () => {
  collectGarbage = await garbageCollector();
  const plenty: [number, number] = [1_000_000, 10_000_000];
  sandbox = await startSandbox({ rateLimits: { overall: plenty, read: plenty } });
  server = await startInProcessMcp(sandbox);
  headers = { accept: "application/json, text/event-stream", "content-type": "application/json", authorization: `Bearer ${server.authToken}` };
  http = new LeanHttpClient(new URL(server.mcpUrl).origin, 64);
});
afterAll(async () => {
  http?.close();
  await server?.close();
  await sandbox?.close();
});

let nextId = 1;
async function callTool(name: string, args: Record<string, unknown>): Promise<{ status: number; body: string }> {
  return http.send({
    method: "POST",
    path: "/mcp",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } }),
  });
}

function megabytes(bytes: number): number {
  return Math.round((bytes / 1_048_576) * 10) / 10;
}

it("10,000 calls at concurrency 64: zero failures, heap back at its baseline", async () => {
  const listed = jsonRpcReply<{ result: { content: Array<{ text: string }> } }>((await callTool("get_activities", { per_page: 30 })).body);
  const ids = (JSON.parse(listed.result.content[0]!.text) as Array<{ id: number }>).map(({ id }) => id);
  const mix = [
    (index: number) => ["get_activity_by_id", { id: ids[index % ids.length] }] as const,
    () => ["get_athlete", {}] as const,
    () => ["get_activities", { per_page: 5 }] as const,
    () => ["get_athlete_stats", {}] as const,
  ];
  const run = async (total: number): Promise<number> => {
    let next = 0;
    let failures = 0;
    await Promise.all(Array.from({ length: 64 }, async () => {
      while (next < total) {
        const index = next++;
        const [name, args] = mix[index % mix.length]!(index);
        const answer = await callTool(name, args);
        const reply = answer.status === 200 ? jsonRpcReply<{ result?: { isError?: boolean } }>(answer.body) : undefined;
        if (!reply?.result || reply.result.isError) failures++;
      }
    }));
    return failures;
  };

  expect(await run(3_000)).toBe(0); // warm-up: JIT, sockets, caches (the SDK's code paths take a few thousand calls to settle)
  collectGarbage();
  const before = process.memoryUsage();
  const started = performance.now();
  expect(await run(10_000)).toBe(0);
  const seconds = (performance.now() - started) / 1000;
  const peak = process.memoryUsage();
  collectGarbage();
  const after = process.memoryUsage();
  console.log(
    `load: 10,000 calls at concurrency 64 in ${seconds.toFixed(1)} s (${Math.round(10_000 / seconds)}/s), 0 failures; ` +
      `heap used ${megabytes(before.heapUsed)} MB before, ${megabytes(after.heapUsed)} MB after (collected); ` +
      `RSS ${megabytes(before.rss)} MB before, ${megabytes(peak.rss)} MB at the end, ${megabytes(after.rss)} MB after collection`,
  );
  // Nothing retained per call: 10,000 calls may leave a few hundred KB of caches and JIT code, no more.
  expect(after.heapUsed - before.heapUsed).toBeLessThan(3 * 1_048_576);
  expect(sandbox.counters().tokenRequests).toBe(1);
}, 180_000);
