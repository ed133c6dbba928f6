/**
 * What a stdio start loads before its first answers: an MCP client that starts the server waits for
 * initialize and tools/list, and none of node:crypto, node:child_process, node:zlib, or the lazy parts of
 * node:process (process.report, which an ES module import of node:process loads) is needed for them. Each costs
 * every start a few milliseconds (BENCHMARKS.md, start-up), so the modules every start loads take node:crypto on
 * first use (common/on-demand-crypto.ts) and node:zlib with the first compressed answer, the launcher loads
 * node:child_process only to rebuild, and the server's bundle reads the global `process`
 * (build/process-as-global.mjs). The first tool call then loads what it needs: the stdio end-to-end tests call
 * every tool. Node's own list of loaded modules (test/support/loaded-modules-recorder.mjs) is the witness; the
 * server is the real launcher with Strava credentials, as a client starts it, and touches no network before
 * a tool is called.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, expect, test } from "vitest";
import { repositoryRoot, baseEnv, scratchDirectory, spawnMcpChild } from "./mcp-child.ts";

/** Built-ins a stdio start must not load before it answers. */
const notAtStart = ["NativeModule crypto", "NativeModule child_process", "NativeModule zlib", "NativeModule internal/process/report"];

const scratch = scratchDirectory();
afterAll(() => scratch.remove());

test("a stdio start answers initialize and tools/list without node:crypto, node:child_process, node:zlib or process.report", async () => {
  const listFile = join(scratch.path, "loaded-modules.txt");
  const child = spawnMcpChild({
    args: ["--stdio"],
    stdin: "pipe",
    nodeFlags: ["--import", pathToFileURL(join(repositoryRoot, "test/support/loaded-modules-recorder.mjs")).href],
    env: baseEnv({
      // Made up: nothing is sent upstream before a tool call.
      STRAVA_CLIENT_ID: "12345",
      STRAVA_CLIENT_SECRET: "start-modules-client-secret",
      STRAVA_REFRESH_TOKEN: "start-modules-refresh-token",
      FITNESS_TOKEN_FILE: join(scratch.path, "tokens.json"),
      LOADED_MODULES_FILE: listFile,
    }),
  });
  const requests = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "start-modules", version: "1.0.0" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
  ];
  // Written at once, as clients write them.
  child.process.stdin!.write(requests.map((request) => `${JSON.stringify(request)}\n`).join(""));
  await expect.poll(() => child.stdout().includes('"id":2'), { timeout: 30_000, interval: 20 }).toBe(true);
  child.process.stdin!.end();
  expect(await child.exited).toBe(0);
  expect(child.stdout()).toContain('"name":"get_athlete"');
  const builtins = readFileSync(listFile, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("NativeModule "));
  expect(builtins).toContain("NativeModule fs");
  expect(builtins.filter((module) => notAtStart.includes(module))).toEqual([]);
});
