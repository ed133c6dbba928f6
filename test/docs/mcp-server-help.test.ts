/**
 * The commands the MCP server's page gives for its usage text, run as printed in a shell whose PATH has no
 * `node_modules/.bin` (a person's terminal, where `node` is whatever the system has, maybe older than the Node 24 the
 * server needs): each prints the usage.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { baseEnv, repositoryRoot } from "../mcp-adapter/mcp-child.ts";

const page = readFileSync(join(repositoryRoot, "docs/operators/mcp-server.md"), "utf8");

describe("the MCP server's --help, as docs/operators/mcp-server.md gives it", () => {
  test("each documented --help command prints the usage from a terminal's PATH", { timeout: 60_000 }, async () => {
    const commands = [...page.matchAll(/`([^`]*--help)`/g)].map((match) => match[1]!);
    expect(commands).toEqual(["npm start --silent -- --help", "node_modules/node/bin/node mcp-adapter/start.mjs --help"]);
    const env = baseEnv({});
    env["PATH"] = (env["PATH"] ?? "")
      .split(":")
      .filter((directory) => !directory.includes("node_modules"))
      .join(":");
    for (const command of commands) {
      const { stdout } = await promisify(execFile)("sh", ["-c", command], { cwd: repositoryRoot, env, timeout: 30_000 });
      expect(stdout, command).toMatch(/^Usage: openclaw-fitness-mcp \[--stdio\]\n/);
    }
  });
});
