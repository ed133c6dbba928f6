/**
 * The lines with which a person signs in to OAuth mode on their own machine, as the README and the operators' page
 * print them (the same block in both): `MCP_AUTH=oauth npm start`, then the MCP Inspector's CLI in a second
 * terminal, which prints the sign-in URL; the consent page (Continue with Strava; the sandbox approves at once)
 * finishes it, and the Inspector lists the tools. Run as printed, the port being the only word changed:
 *
 * - `npm start` with a home directory of its own (OAuth mode keeps its state under it);
 * - the Inspector under a pseudo-terminal (`script`): it signs in only when a person is at a terminal. It is the
 *   version pinned in devDependencies, so nothing is downloaded (npm is told to stay offline). A test machine has no browser, so the Inspector's
 *   own switch (MCP_AUTO_OPEN_ENABLED=false) keeps it from trying to open one; it prints the URL all the same;
 * - the headless user agent plays the person's browser on the printed URL, up to the Inspector's own loopback
 *   callback, which it then opens as the browser would.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { toolTable } from "../../tools/table.ts";
import { baseEnv, repositoryRoot, scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { freePort } from "../support/free-port.ts";
import { runInTerminal, runPrintedCommand, type NpmRun } from "../support/npm-run.ts";
import { HeadlessUserAgent } from "../support/oauth-user-agent.ts";

const home = scratchDirectory();
const running: NpmRun[] = [];

afterAll(async () => {
  await Promise.all(running.map((run) => run.stop()));
  home.remove();
});

/** The commands of the `sh` block that starts with `MCP_AUTH=oauth npm start` and runs the Inspector's CLI, in `file`: comments dropped. */
function signInLines(file: string): string[] {
  const text = readFileSync(join(repositoryRoot, file), "utf8");
  const block = [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((body) => body.startsWith("MCP_AUTH=oauth npm start") && body.includes(" --cli "));
  if (block === undefined) throw new Error(`${file} has no sh block with MCP_AUTH=oauth npm start and the Inspector's --cli`);
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
}

/** What a terminal showed, without its escapes (the Inspector prints the URL as a hyperlink) and carriage returns. */
function plain(screen: string): string {
  // Terminal escapes are control characters by definition.
  return (
    screen
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\]8;;[^\x07]*\x07/g, "")
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;]*[A-Za-z]/g, "")
      .replaceAll("\r", "")
  );
}

describe("signing in to OAuth mode from a terminal, as the README and the operators' page print it", () => {
  test(
    "npm start in OAuth mode, the Inspector prints the URL, the consent page finishes it, the tools are listed",
    { timeout: 180_000 },
    async () => {
      const lines = signInLines("README.md");
      expect(signInLines("docs/operators/oauth-mode.md")).toEqual(lines);
      const [serverLine, inspectorLine] = lines;
      expect(lines).toHaveLength(2);
      expect(serverLine).toBe("MCP_AUTH=oauth npm start");
      expect(inspectorLine).toBe("npx @modelcontextprotocol/inspector --cli http://127.0.0.1:3000/mcp --method tools/list");

      const port = await freePort();
      const env = baseEnv({ HOME: home.path, PORT: String(port), MCP_AUTO_OPEN_ENABLED: "false", npm_config_offline: "true" });
      // OAuth mode's state goes under HOME, where a person's would.
      delete env["XDG_CONFIG_HOME"];
      const server = runPrintedCommand(serverLine!, env);
      running.push(server);
      await server.waitFor(/"event":"listening"/, 120_000);

      const inspector = runInTerminal(inspectorLine!.replace(":3000/", `:${port}/`), env);
      running.push(inspector);
      await inspector.waitFor(/Please navigate to:/, 90_000);
      const url = /Please navigate to: (\S+)/.exec(plain(inspector.stdout()))?.[1];
      expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/authorize\\?`));

      const browser = new HeadlessUserAgent();
      const outcome = await browser.authorize(url!, { redirectUri: "http://127.0.0.1:6276/oauth/callback" });
      expect(outcome.callback?.searchParams.get("code")).toBeTruthy();
      const backAtTheInspector = await fetch(outcome.callback!);
      expect(backAtTheInspector.status).toBe(200);
      await backAtTheInspector.arrayBuffer();

      expect(await inspector.exited).toBe(0);
      const listed = plain(inspector.stdout());
      for (const tool of toolTable) expect(listed).toContain(`"name": "${tool.name}"`);
      expect(server.stderr()).toMatch(/"athlete":"48201735".*"event":"sign_in_completed"/);
    },
  );
});
