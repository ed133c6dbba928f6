/**
 * The MCP conformance suite (@modelcontextprotocol/conformance, every server scenario of its version,
 * pending ones included) against the MCP server as a child process on the sandbox. The suite sends no
 * Authorization header, so it talks to the server through a proxy that adds the bearer token and keeps
 * Host and Origin as the suite sent them (its DNS rebinding scenario sends a foreign Host and Origin and
 * must be refused by the server itself). Scenarios for features this server does not offer are listed,
 * with the reason, in conformance-expected-failures.yaml; the suite exits non-zero when any other
 * scenario fails or a listed one starts passing.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startBearerProxy, type RunningBearerProxy } from "../support/bearer-proxy.ts";
import { repositoryRoot, sandboxEnv, scratchDirectory, spawnMcpChild, type McpChild } from "./mcp-child.ts";

const authToken = "conformance-bearer-token-0123456789";
const suite = join(repositoryRoot, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

let sandbox: RunningSandbox;
let scratch: ReturnType<typeof scratchDirectory>;
let server: McpChild;
let proxy: RunningBearerProxy;

beforeAll(async () => {
  sandbox = await startSandbox({});
  scratch = scratchDirectory();
  server = spawnMcpChild({ env: sandboxEnv(sandbox, { authToken, tokenDirectory: scratch.path }) });
  proxy = await startBearerProxy(new URL(String((await server.waitForEvent("listening"))["url"])), authToken);
});

afterAll(async () => {
  await proxy?.close();
  await server?.stop();
  await sandbox?.close();
  scratch?.remove();
});

test("every server scenario passes except those listed, with reasons, as expected failures", async () => {
  const output = join(scratch.path, "results");
  const run = await promisify(execFile)(
    // The suite needs Node 22 or newer: run it on this process's Node (the pinned 24).
    process.execPath,
    [
      suite,
      "server",
      "--url",
      `${proxy.origin}/mcp`,
      "--suite",
      "all",
      "--expected-failures",
      join(import.meta.dirname, "conformance-expected-failures.yaml"),
      "-o",
      output,
    ],
    { cwd: repositoryRoot, timeout: 120_000, encoding: "utf8" },
  ).then(
    (done) => ({ code: 0, stdout: done.stdout }),
    (failed: { code?: number; stdout?: string; stderr?: string }) => ({
      code: failed.code ?? -1,
      stdout: `${failed.stdout ?? ""}\n${failed.stderr ?? ""}`,
    }),
  );
  const summary = run.stdout.slice(run.stdout.lastIndexOf("=== SUMMARY ==="));
  expect(run.code, summary).toBe(0);

  const statusOf = (scenario: string): string[] => {
    const directory = readdirSync(output).find((name) => name.startsWith(`server-${scenario}-`));
    if (directory === undefined) throw new Error(`no results for ${scenario}:\n${summary}`);
    return (JSON.parse(readFileSync(join(output, directory, "checks.json"), "utf8")) as { status: string }[]).map((check) => check.status);
  };
  for (const scenario of ["server-initialize", "ping", "tools-list", "dns-rebinding-protection", "resources-list", "prompts-list"]) {
    const statuses = statusOf(scenario);
    expect(statuses.length, scenario).toBeGreaterThan(0);
    expect(
      statuses.every((status) => status === "SUCCESS"),
      `${scenario}: ${statuses.join(", ")}`,
    ).toBe(true);
  }
}, 180_000);
