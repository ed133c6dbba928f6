/**
 * Soak: the MCP server under a steady mixed load for several minutes against the sandbox, with faults
 * injected at the upstream all along (5xx, resets, timeouts, cut-off and non-JSON bodies, revoked
 * tokens and a token endpoint that fails). Reports calls, failures that were NOT caused by an injected
 * fault, the heap after forced collection over time, and RSS.
 *
 *   npx tsx bench/soak.ts [minutes=3] [concurrency=16]
 */
import { startSandbox, type Fault } from "../sandbox/server.ts";
import { LeanHttpClient } from "./lean-http-client.ts";
import { garbageCollector, startInProcessMcp } from "../test/support/in-process-mcp.ts";
import { jsonRpcReply } from "../test/support/mcp-replies.ts";

const minutes = Number(process.argv[2] ?? 3);
const concurrency = Number(process.argv[3] ?? 16);
const collectGarbage = await garbageCollector();
const plenty: [number, number] = [100_000_000, 1_000_000_000];
const sandbox = await startSandbox({ rateLimits: { overall: plenty, read: plenty } });
const server = await startInProcessMcp(sandbox);
const http = new LeanHttpClient(new URL(server.mcpUrl).origin, concurrency);
const headers = {
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  authorization: `Bearer ${server.authToken}`,
};

let nextId = 1;
const call = async (name: string, args: Record<string, unknown>) => {
  const answer = await http.send({
    method: "POST",
    path: "/mcp",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } }),
  });
  const reply = jsonRpcReply<{ result?: { isError?: boolean; content: Array<{ text: string }> } }>(answer.body);
  return {
    ok: answer.status === 200 && reply.result !== undefined && !reply.result.isError,
    text: reply.result?.content[0]?.text ?? answer.body,
  };
};

const listed = await call("get_activities", { per_page: 30 });
const ids = (JSON.parse(listed.text) as Array<{ id: number }>).map(({ id }) => id);
const mix: Array<(index: number) => [string, Record<string, unknown>]> = [
  (index) => ["get_activity_by_id", { id: ids[index % ids.length] }],
  () => ["get_athlete", {}],
  () => ["get_activities", { per_page: 10 }],
  () => ["get_athlete_stats", {}],
  (index) => ["get_activity_zones", { id: ids[index % ids.length] }],
  (index) => ["update_activity", { id: ids[index % ids.length], name: `Soak ${index % 7}` }],
];
const faults: Array<{ label: string; fault?: Fault; expire?: boolean }> = [
  { label: "500", fault: { kind: "status", status: 500, match: "GET /athlete" } },
  { label: "reset", fault: { kind: "reset", match: "GET /athlete" } },
  { label: "truncate", fault: { kind: "truncate", match: "GET /athlete" } },
  { label: "non-json", fault: { kind: "non-json", match: "GET /athlete" } },
  { label: "revoked token", expire: true },
  { label: "token endpoint 503", expire: true, fault: { kind: "status", status: 503, match: "POST /oauth/token" } },
];

const started = Date.now();
const deadline = started + minutes * 60_000;
let calls = 0;
let unexplainedFailures = 0;
let faultsInjected = 0;
let faultErrors = 0;
const samples: string[] = [];
const heap = () => {
  collectGarbage();
  return Math.round(process.memoryUsage().heapUsed / 104857.6) / 10;
};
const heapAtStart = heap();

// One caller injects a fault every 2 s and checks that exactly its own call fails clearly, then recovers.
const injector = (async () => {
  let index = 0;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const { fault, expire } = faults[index++ % faults.length]!;
    if (expire) sandbox.expireAccessTokens();
    if (fault) sandbox.injectFault(fault);
    faultsInjected++;
  }
})();

const workers = Array.from({ length: concurrency }, async (_, worker) => {
  let index = worker;
  while (Date.now() < deadline) {
    const [name, args] = mix[index % mix.length]!(index);
    index += concurrency;
    const result = await call(name, args);
    calls++;
    if (!result.ok) {
      // Injected faults surface as clear error results; anything else is a real failure.
      if (
        /^Error: (Strava answered 5\d\d|Network failure|Strava answered .* but the body is not complete JSON|The Strava token endpoint|Could not reach the Strava token endpoint)/.test(
          result.text,
        )
      )
        faultErrors++;
      else {
        unexplainedFailures++;
        console.error(`unexplained failure: ${result.text.slice(0, 300)}`);
      }
    }
  }
});

const sampler = setInterval(() => {
  const elapsed = Math.round((Date.now() - started) / 1000);
  samples.push(`${elapsed}s: ${calls} calls, heap ${heap()} MB, rss ${Math.round(process.memoryUsage().rss / 1_048_576)} MB`);
  console.log(samples.at(-1));
}, 30_000);

await Promise.all([...workers, injector]);
clearInterval(sampler);
// A fault queued just before the end may still be waiting for a request: the recovery check allows
// that one to fire, then needs a success.
let last = await call("get_athlete", {});
for (let attempt = 0; attempt < 2 && !last.ok; attempt++) last = await call("get_athlete", {});
console.log(
  `\nsoak: ${minutes} min at concurrency ${concurrency}: ${calls} calls (${Math.round(calls / (minutes * 60))}/s), ` +
    `${faultsInjected} faults injected, ${faultErrors} calls failed with a clear fault error, ${unexplainedFailures} unexplained failures; ` +
    `heap after collection ${heapAtStart} MB at start, ${heap()} MB at end; recovery call after the run ${last.ok ? "ok" : "FAILED"}; ` +
    `${sandbox.counters().tokenRequests} token requests in all`,
);
http.close();
await server.close();
await sandbox.close();
process.exit(unexplainedFailures === 0 && last.ok ? 0 : 1);
