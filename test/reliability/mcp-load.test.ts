/**
 * 13,000 tool calls at concurrency 64 through POST /mcp against the sandbox: zero failures, and nothing
 * retained per call.
 *
 * How the heap is measured, and why (so that a busy machine cannot fail it, and a leak cannot pass it):
 * - The server runs in its own process, as `npm start` runs it (mcp-adapter/start.mjs, with its heap
 *   settings), so the heap measured is the server's alone: not this process's, which also holds the load
 *   generator, the sandbox and the test runner.
 * - Full collections are forced in that process through its inspector (`--inspect=127.0.0.1:0`), and the
 *   heap is read once it has settled (test/support/inspected-heap.ts): one collection right after the
 *   last answer counts exchanges the server has not finished closing, more of them the busier the machine.
 * - Two rounds of 5,000 calls after a warm-up, each held to a bound: a leak grows the heap in proportion
 *   to the calls, so it shows in both rounds; JIT code and caches filled once stay in the warm-up.
 *   The bound is about 50 bytes per call: keeping every request body (some 140 bytes each) grows the heap
 *   by about 0.65 MB per round and fails; a clean server grows by a few tens of KB per round.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { LeanHttpClient } from "../../bench/lean-http-client.ts";
import { sandboxEnv, scratchDirectory, spawnMcpChild, type McpChild } from "../mcp-adapter/mcp-child.ts";
import { inspectHeap, inspectorUrl, type InspectedHeap } from "../support/inspected-heap.ts";
import { jsonRpcReply } from "../support/mcp-replies.ts";

const callsPerRound = 5_000;
const boundPerRound = 256 * 1024;

const tokenDirectory = scratchDirectory();
const authToken = "load-test-bearer-token-0123456789";
let sandbox: RunningSandbox;
let server: McpChild;
let heap: InspectedHeap;
let http: LeanHttpClient;
let headers: Record<string, string>;

beforeAll(async () => {
  const plenty: [number, number] = [1_000_000, 10_000_000];
  sandbox = await startSandbox({ rateLimits: { overall: plenty, read: plenty } });
  server = spawnMcpChild({
    env: sandboxEnv(sandbox, { authToken, tokenDirectory: tokenDirectory.path }),
    nodeFlags: ["--inspect=127.0.0.1:0"],
  });
  const listening = await server.waitForEvent("listening");
  // start.mjs re-executes itself with its heap settings: the server's inspector is the last one announced.
  const inspector = server.stderrLines
    .map(inspectorUrl)
    .filter((url) => url !== undefined)
    .at(-1);
  if (inspector === undefined) throw new Error(`the server announced no inspector address:\n${server.stderrLines.join("\n")}`);
  heap = await inspectHeap(inspector);
  headers = { accept: "application/json, text/event-stream", "content-type": "application/json", authorization: `Bearer ${authToken}` };
  http = new LeanHttpClient(new URL(String(listening["url"])).origin, 64);
});
afterAll(async () => {
  http?.close();
  heap?.close();
  await server?.stop();
  await sandbox?.close();
  tokenDirectory.remove();
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

function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toFixed(2);
}

/** The server's resident memory (start.mjs re-executes in place, so the child's pid is the server's). */
function serverRss(): number {
  const status = readFileSync(`/proc/${server.process.pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? Number.NaN) * 1024;
}

it("13,000 calls at concurrency 64: zero failures, no heap growth in proportion to calls", async () => {
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
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < total) {
          const index = next++;
          const [name, args] = mix[index % mix.length]!(index);
          const answer = await callTool(name, args);
          const reply = answer.status === 200 ? jsonRpcReply<{ result?: { isError?: boolean } }>(answer.body) : undefined;
          if (!reply?.result || reply.result.isError) failures++;
        }
      }),
    );
    return failures;
  };

  expect(await run(3_000)).toBe(0); // warm-up: JIT, sockets, caches (the SDK's code paths take a few thousand calls to settle)
  const baseline = await heap.settledHeapUsed();
  const rssBefore = serverRss();
  const started = performance.now();
  const rounds: number[] = [baseline.bytes];
  for (let round = 1; round <= 2; round++) {
    expect(await run(callsPerRound)).toBe(0);
    rounds.push((await heap.settledHeapUsed()).bytes);
  }
  const seconds = (performance.now() - started) / 1000;
  const growth = rounds.slice(1).map((bytes, round) => bytes - rounds[round]!);
  console.log(
    `load: 2 x ${callsPerRound} calls at concurrency 64 in ${seconds.toFixed(1)} s (${Math.round((2 * callsPerRound) / seconds)}/s), 0 failures; ` +
      `server heap in use after collection ${rounds.map(megabytes).join(" -> ")} MB ` +
      `(growth per round ${growth.map(megabytes).join(", ")} MB; bound ${megabytes(boundPerRound)} MB); ` +
      `server RSS ${megabytes(rssBefore)} MB before, ${megabytes(serverRss())} MB after`,
  );
  for (const [round, bytes] of growth.entries()) {
    expect(
      bytes,
      `round ${round + 1}: the server's heap grew ${megabytes(bytes)} MB over ${callsPerRound} calls (${Math.round(bytes / callsPerRound)} bytes per call)`,
    ).toBeLessThan(boundPerRound);
  }
  expect(sandbox.counters().tokenRequests).toBe(1);
}, 180_000);
