/**
 * The README's quick start, run as a newcomer runs it: `npm start` in the checkout with a home directory of
 * its own (so the bearer token is generated where the README says), then every command of the second
 * terminal's block in a POSIX shell, as printed, the port being the only word changed. The Claude Code line
 * must be the one the server itself prints in a terminal.
 *
 * The block's Inspector line runs the Inspector pinned in devDependencies (`npx` finds it in the checkout), so it
 * runs as printed; npm is told to stay offline, so a line that would download anything fails here.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { httpBanner } from "../../mcp-adapter/terminal-banner.ts";
import { baseEnv, repositoryRoot, scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { freePort } from "../support/free-port.ts";
import { runNpm, type NpmRun } from "../support/npm-run.ts";

const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
const home = scratchDirectory();
let server: NpmRun | undefined;

afterAll(async () => {
  await server?.stop();
  home.remove();
});

/** The section's `sh` blocks, each as its commands: comments dropped, continuation lines joined. */
function quickStartBlocks(): string[][] {
  const section = readme.split(/^## Quick start.*$/m)[1]?.split(/^## /m)[0];
  if (section === undefined) throw new Error("README.md has no '## Quick start' section");
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    match[1]!
      .replaceAll("\\\n", " ")
      .split("\n")
      .map((line) =>
        line
          .replace(/\s+#.*$/, "")
          .replace(/\s+/g, " ")
          .trim(),
      )
      .filter((line) => line !== ""),
  );
}

const tokenPath = "~/.config/openclaw-fitness/mcp-auth-token";

describe("the README's quick start", () => {
  test("npm start, then the second terminal's commands as printed: health, a tool call, the tool list", { timeout: 180_000 }, async () => {
    const [first, second, claude] = quickStartBlocks();
    expect(first).toEqual(["npm install", "npm start"]);
    expect(second?.[0]).toBe(`TOKEN=$(cat ${tokenPath})`);

    const port = await freePort();
    const env = baseEnv({ HOME: home.path, PORT: String(port) });
    // The README's token path is under HOME; the tests' shared config directory would move it.
    delete env["XDG_CONFIG_HOME"];
    server = runNpm(["start"], env);
    await server.waitFor(/"event":"listening"/, 120_000);
    expect(server.stderr()).toMatch(/SANDBOX/);

    const shell = (command: string, cwd = repositoryRoot) =>
      promisify(execFile)("sh", ["-c", `${second![0]!}\n${command.replaceAll(":3000/", `:${port}/`)}`], {
        cwd,
        env: { ...env, npm_config_offline: "true" },
        timeout: 60_000,
      });
    const [, healthLine, callLine, inspectorLine] = second!;

    const health = JSON.parse((await shell(healthLine!)).stdout) as Record<string, unknown>;
    expect(health).toMatchObject({ status: "ok", upstream: "sandbox" });

    const called = JSON.parse((await shell(callLine!)).stdout) as { result: { content: { text: string }[]; isError?: boolean } };
    expect(called.result.isError).toBeFalsy();
    expect(JSON.parse(called.result.content[0]!.text)).toMatchObject({ firstname: "Maya", lastname: "Lindgren" });

    expect(inspectorLine).toMatch(/^npx @modelcontextprotocol\/inspector --cli http:\/\/127\.0\.0\.1:3000\/mcp /);
    const listed = JSON.parse((await shell(inspectorLine!)).stdout) as { tools: { name: string }[] };
    expect(listed.tools).toHaveLength(11);

    // The Claude Code line is the one the server prints for a person at a terminal.
    const banner = httpBanner({
      mcpUrl: "http://127.0.0.1:3000/mcp",
      version: "0",
      upstream: "sandbox",
      token: { kind: "file", path: "/HOME/.config/openclaw-fitness/mcp-auth-token", created: false },
    });
    const printed = banner
      .split("\n")
      .find((line) => line.includes("claude mcp add"))!
      .trim()
      .replaceAll("/HOME/", "~/");
    expect(claude).toEqual([printed]);
  });
});
