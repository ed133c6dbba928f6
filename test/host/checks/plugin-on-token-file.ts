/**
 * The fitness plugin in the real host on a computer with no AWS account: `credentialStore: "token-file"`,
 * the token file written by `npm run authorize -- --store file` (run against the sandbox, which approves at
 * once), and a gateway whose environment holds no AWS_* variable at all.
 *
 * - the plugin's config is what `npm run setup:coach --credentials token-file --token-file F` writes, and
 *   setup finds the file ready;
 * - a tool call through the gateway's `POST /tools/invoke` answers from the upstream;
 * - after the sandbox expires every access token, the next call refreshes: the new refresh token is
 *   written back to the file, which keeps client_id and client_secret and mode 0600;
 * - an MCP server started on the same file (`node mcp-adapter/start.mjs` with FITNESS_TOKEN_FILE and the
 *   upstream's addresses, nothing else of ours) and the plugin take turns, an expiry before every call,
 *   so each refresh rotates the refresh token the other one holds: both keep answering, and the sandbox
 *   refuses no refresh token.
 *
 * The token file's grant is its own (a new authorization): rotating it leaves the Secrets Manager secret
 * the other modules use as it was. No value of the file is ever printed.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HostCheckModule } from "../host-check-module.ts";
import type { HostContext, RunningGateway } from "../host-context.ts";
import type { HostServices } from "../host-services.ts";
import { copyPluginCheckout } from "../plugin-package.ts";
import { checkAgents, fitnessHostConfig } from "../fitness-host-config.ts";
import { invokeResultJson } from "../fitness-plugin-assertions.ts";
import { runSetupCoach } from "../run-setup-coach.ts";
import { baseEnv, spawnMcpChild, type McpChild } from "../../mcp-adapter/mcp-child.ts";
import { debriefIntervalRange } from "../../../plugin/plugin-config.ts";

/** Rounds of MCP server call, plugin call, each after an expiry. */
const rounds = 3;
const mcpAuthToken = "host-check-token-file-0123456789";

interface TokenFileContents {
  client_id?: unknown;
  client_secret?: unknown;
  refresh_token?: unknown;
  access_token?: unknown;
  expires_at?: unknown;
}

const module: HostCheckModule = {
  title: "fitness plugin on a local token file, no AWS credentials, sharing the file with an MCP server",
  async run({ repoRoot, services, report, withHost }) {
    await withHost(async (context) => {
      const { sandbox } = services;
      const tokenFile = join(context.dir, "strava", "strava-tokens.json");
      const stored = (): TokenFileContents => JSON.parse(readFileSync(tokenFile, "utf8")) as TokenFileContents;
      const mode = (): string => (statSync(tokenFile).mode & 0o777).toString(8).padStart(4, "0");
      // Every AWS_* variable the runner gives host processes (moto's endpoint and test keys), removed.
      const noAws: NodeJS.ProcessEnv = Object.fromEntries(
        Object.keys(context.env)
          .filter((name) => name.startsWith("AWS_"))
          .map((name) => [name, undefined]),
      );

      const authorized = await report.check(
        "npm run authorize -- --store file --token-file F (against the sandbox, no AWS variable) writes the token file, mode 0600",
        async () => {
          const run = await authorizeIntoFile(repoRoot, context, services, tokenFile, noAws);
          const file = stored();
          assert.deepEqual(
            Object.fromEntries(
              ["client_id", "client_secret", "refresh_token", "access_token", "expires_at"].map((key) => [
                key,
                typeof file[key as keyof TokenFileContents],
              ]),
            ),
            { client_id: "string", client_secret: "string", refresh_token: "string", access_token: "string", expires_at: "number" },
          );
          assert.equal(file.client_id, sandbox.clientId);
          assert.equal(mode(), "0600");
          // Its own grant: not the seeded one the secret holds.
          assert.notEqual(file.refresh_token, sandbox.refreshToken());
          for (const value of [file.refresh_token, file.access_token, sandbox.clientSecret])
            assert.ok(!run.output.includes(String(value)), "authorize printed a secret");
          assert.ok(run.output.includes(`in the token file ${tokenFile}.`), run.output);
          return `${(run.ms / 1000).toFixed(1)} s; mode ${mode()}`;
        },
      );
      if (!authorized) {
        report.blocked("the plugin on a token file", "npm run authorize did not write the token file");
        return;
      }

      // The plugin's config as setup:coach writes it (into a config of its own; its coach and Telegram parts are coach-conversation.ts's).
      let pluginConfig: Record<string, unknown> | undefined;
      const configured = await report.check(
        "npm run setup:coach --credentials token-file --token-file F writes the plugin's config and finds the file ready (0600)",
        async () => {
          const setupConfig = join(context.dir, "setup-coach.json");
          const setup = await runSetupCoach(
            repoRoot,
            context,
            [
              "--workspace",
              join(context.dir, "workspace-coach"),
              "--config",
              setupConfig,
              "--sandbox",
              "off",
              "--credentials",
              "token-file",
              "--token-file",
              tokenFile,
            ],
            noAws,
          );
          assert.equal(setup.code, 0, setup.output);
          assert.ok(
            setup.output.includes(`check: ${tokenFile} exists, mode 0600, with client_id, client_secret and a refresh token`),
            setup.output,
          );
          const written = await context.readConfig(setupConfig);
          pluginConfig = ["plugins", "entries", "fitness", "config"].reduce<unknown>(
            (node, key) => (node as Record<string, unknown> | undefined)?.[key],
            written,
          ) as Record<string, unknown> | undefined;
          // setup:coach also turns the coach's debriefs on at the default interval, for the agent it set up.
          assert.deepEqual(pluginConfig, {
            credentialStore: "token-file",
            tokenFile,
            debriefs: debriefIntervalRange.defaultSetting,
            debriefAgent: "coach",
          });
          return setup.output.split("\n").find((line) => line.startsWith("Credentials "));
        },
      );
      if (!configured || !pluginConfig) {
        report.blocked("the plugin on a token file", "setup:coach did not write the plugin's config");
        return;
      }

      const pluginDir = await copyPluginCheckout(repoRoot, join(context.dir, "openclaw-fitness"));
      const config = fitnessHostConfig(context, services, { loadPaths: [pluginDir] }) as {
        plugins: { entries: { fitness: { config: Record<string, unknown> } } };
      };
      config.plugins.entries.fitness.config = pluginConfig;
      await context.writeConfig(config as unknown as Record<string, unknown>);

      await report.check('openclaw config validate accepts credentialStore "token-file" with the file\'s path', async () => {
        const { result, json } = await context.runJson<{ valid: boolean; warnings?: Array<{ path: string; message: string }> }>(
          ["config", "validate", "--json"],
          { env: noAws },
        );
        assert.equal(json.valid, true, result.stdout);
        const ours = (json.warnings ?? []).filter((warning) => warning.path.startsWith("plugins") || /fitness/i.test(warning.message));
        assert.deepEqual(ours, [], "warnings about the plugin");
      });

      let gateway: RunningGateway | undefined;
      const started = await report.check("the gateway starts with the plugin and no AWS_* variable in its environment", async () => {
        gateway = await context.startGateway({ env: noAws });
        const environment = await readFile(`/proc/${gateway.pid}/environ`, "utf8").then(
          (text) => text.split("\0").map((entry) => entry.split("=")[0] ?? ""),
          () => undefined,
        );
        if (environment)
          assert.deepEqual(
            environment.filter((name) => name.startsWith("AWS_")),
            [],
            "AWS variables reached the gateway",
          );
        return environment ? `${environment.length} variables, none AWS_*` : "(no /proc here: the environment was built without AWS_*)";
      });
      if (!started || !gateway) return;
      const live = gateway;
      const control = sandboxControl(services);

      const served = await report.check(
        "POST /tools/invoke fitness_get_athlete answers from the upstream with the token file's credentials",
        async () => {
          const athlete = invokeResultJson(await live.invoke("fitness_get_athlete", {}, checkAgents.allowed), "fitness_get_athlete") as {
            id: number;
          };
          assert.equal(athlete.id, sandbox.athleteId);
          const said = live
            .output()
            .split("\n")
            .find((line) => line.includes("fitness_tools_ready"));
          assert.ok(
            said?.includes(`"credentials":"token file ${tokenFile}"`),
            `the plugin did not log that it uses the token file: ${said ?? "(no fitness_tools_ready line)"}`,
          );
          return `athlete ${athlete.id}; the plugin logged credentials "token file <F>"`;
        },
      );
      if (!served) return;

      const refreshed = await report.check(
        "after the sandbox expires the access token, the next call refreshes and writes the new refresh token back to the file (client_id, client_secret and 0600 kept)",
        async () => {
          const before = stored();
          const counters = await control.counters();
          await control.expire();
          const [latest] = invokeResultJson(
            await live.invoke("fitness_get_activities", { per_page: 1 }, checkAgents.allowed),
            "fitness_get_activities",
          ) as Array<{ id: number }>;
          assert.ok(latest, "no activity listed");
          const after = stored();
          const now = await control.counters();
          assert.equal(now.tokenRequests - counters.tokenRequests, 1, "refreshes for one expiry");
          assert.equal(now.refreshTokenRejections - counters.refreshTokenRejections, 0, "refresh tokens refused");
          assert.notEqual(after.refresh_token, before.refresh_token, "the file still holds the spent refresh token");
          assert.ok(sandbox.acceptsRefreshToken(String(after.refresh_token)), "the file's refresh token is not the one that works now");
          assert.notEqual(after.access_token, before.access_token);
          assert.ok(Number(after.expires_at) > Date.now() / 1000 + 3600, "expires_at is not hours ahead");
          assert.equal(after.client_id, sandbox.clientId);
          assert.equal(after.client_secret, sandbox.clientSecret);
          assert.equal(mode(), "0600");
          return `1 refresh, 0 refused; mode ${mode()}`;
        },
      );
      if (!refreshed) return;

      // The counts of refreshes below must hold only the turns' own: see firstDebriefCheckMade.
      await firstDebriefCheckMade(live);
      let server: McpChild | undefined;
      try {
        await report.check(
          `an MCP server started on the same file and the plugin take turns, an expiry before each call (${rounds} rounds): both answer, no refresh token refused`,
          async () => {
            server = spawnMcpChild({
              env: baseEnv({
                PORT: "0",
                AUTH_TOKEN: mcpAuthToken,
                FITNESS_TOKEN_FILE: tokenFile,
                STRAVA_API_BASE: sandbox.apiBase,
                STRAVA_TOKEN_URL: sandbox.tokenUrl,
              }),
            });
            const listening = await server.waitForEvent("listening", 60_000);
            // The sandbox at STRAVA_API_BASE, named as such, and served from the token file (not the built-in one).
            assert.equal(listening["upstream"], "sandbox");
            assert.equal((await server.waitForEvent("upstream_selected"))["credentials"], `token file ${tokenFile}`);
            const url = String(listening["url"]);
            const counters = await control.counters();
            const spent = new Set<string>();
            for (let round = 1; round <= rounds; round++) {
              spent.add(String(stored().refresh_token));
              await control.expire();
              const fromMcp = await mcpGetAthlete(url);
              assert.equal(fromMcp.id, sandbox.athleteId, `round ${round}: the MCP server's answer`);
              assert.ok(!spent.has(String(stored().refresh_token)), `round ${round}: the MCP server's refresh was not written to the file`);
              spent.add(String(stored().refresh_token));
              await control.expire();
              const fromPlugin = invokeResultJson(
                await live.invoke("fitness_get_athlete", {}, checkAgents.allowed),
                "fitness_get_athlete",
              ) as { id: number };
              assert.equal(fromPlugin.id, sandbox.athleteId, `round ${round}: the plugin's answer`);
              assert.ok(!spent.has(String(stored().refresh_token)), `round ${round}: the plugin's refresh was not written to the file`);
            }
            const now = await control.counters();
            assert.equal(now.refreshTokenRejections - counters.refreshTokenRejections, 0, "refresh tokens refused by the sandbox");
            assert.equal(now.tokenRequests - counters.tokenRequests, 2 * rounds, "refreshes (one per expiry)");
            const file = stored();
            assert.ok(sandbox.acceptsRefreshToken(String(file.refresh_token)), "the file's refresh token is not the one that works now");
            assert.equal(file.client_id, sandbox.clientId);
            assert.equal(file.client_secret, sandbox.clientSecret);
            assert.equal(mode(), "0600");
            // Every token the file has held stays out of both logs (the client secret too).
            const logs = `${live.output()}\n${server.stderrLines.join("\n")}`;
            for (const value of [...spent, String(file.refresh_token), String(file.access_token), sandbox.clientSecret])
              assert.ok(!logs.includes(value), "a secret reached a log");
            return `${2 * rounds} refreshes, each written to the file and picked up by the other process; 0 refused; mode ${mode()}`;
          },
        );
      } finally {
        await server?.stop();
        await live.stop();
      }
    });
  },
};

export default module;

/**
 * `npm run authorize -- --store file --token-file FILE` as an operator runs it, with the sandbox as Strava:
 * the URL it prints is opened (the sandbox approves at once and redirects to the command's callback).
 */
async function authorizeIntoFile(
  repoRoot: string,
  context: HostContext,
  services: HostServices,
  tokenFile: string,
  noAws: NodeJS.ProcessEnv,
): Promise<{ output: string; ms: number }> {
  const started = performance.now();
  const child = spawn("npm", ["run", "--silent", "authorize", "--", "--store", "file", "--token-file", tokenFile], {
    cwd: repoRoot,
    env: {
      ...context.env,
      ...noAws,
      PATH: process.env["PATH"] ?? "",
      STRAVA_CLIENT_ID: services.sandbox.clientId,
      STRAVA_CLIENT_SECRET: services.sandbox.clientSecret,
      STRAVA_AUTHORIZE_URL: services.sandbox.authorizeUrl,
      STRAVA_TOKEN_URL: services.sandbox.tokenUrl,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  try {
    return await finishAuthorization(
      child,
      exited,
      () => output,
      (chunk) => (output += chunk),
      started,
    );
  } finally {
    // A check that failed half way must not leave authorize holding its callback port.
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  }
}

async function finishAuthorization(
  child: ReturnType<typeof spawn>,
  exited: Promise<number | null>,
  read: () => string,
  append: (chunk: string) => void,
  started: number,
): Promise<{ output: string; ms: number }> {
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no authorization URL within 60 s:\n${read()}`)), 60_000);
    const collect = (chunk: Buffer): void => {
      append(chunk.toString());
      const match = /https?:\/\/\S+\/oauth\/authorize\S*/.exec(read());
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm run authorize exited (${code}) before printing a URL:\n${read()}`));
    });
  });
  const page = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  assert.equal(page.status, 200, `the callback page answered ${page.status}`);
  const code = await exited;
  assert.equal(code, 0, read());
  return { output: read(), ms: performance.now() - started };
}

interface SandboxCounters {
  tokenRequests: number;
  refreshTokenRejections: number;
}

/**
 * Waits (a minute at most) for the gateway's first debrief check. setup:coach turned the debriefs on, and that check
 * comes about 30 s after the gateway starts and lists the log, refreshing first if the access token was expired: made
 * while the MCP server and the plugin take turns, its refresh would be counted as an extra one (and rotate the
 * refresh token the MCP server holds). The next check is an interval (15 minutes) later. Each outcome of a first
 * check is logged; without debriefs there is none to wait for.
 */
async function firstDebriefCheckMade(gateway: RunningGateway): Promise<void> {
  const made = /"event":"(debrief_baseline|debrief_check_skipped|debrief_check_failed|debriefs_unavailable|debriefs_off)"/;
  const deadline = Date.now() + 60_000;
  while (!made.test(gateway.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
}

/** The sandbox's test controls over HTTP (POST /_sandbox/expire-tokens, GET /_sandbox/counters). */
function sandboxControl(services: HostServices): { expire(): Promise<void>; counters(): Promise<SandboxCounters> } {
  const base = services.sandbox.baseUrl;
  return {
    async expire() {
      const response = await fetch(`${base}/_sandbox/expire-tokens`, { method: "POST" });
      assert.equal(response.status, 200, `expire-tokens: ${response.status}`);
      await response.arrayBuffer();
    },
    async counters() {
      const response = await fetch(`${base}/_sandbox/counters`);
      assert.equal(response.status, 200, `counters: ${response.status}`);
      return (await response.json()) as SandboxCounters;
    },
  };
}

/** `tools/call get_athlete` on the MCP server (stateless HTTP), the athlete parsed from its text. */
async function mcpGetAthlete(url: string): Promise<{ id: number }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${mcpAuthToken}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_athlete", arguments: {} } }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  assert.equal(response.status, 200, `MCP tools/call: ${response.status} ${text.slice(0, 300)}`);
  // JSON, or one server-sent event whose data is the JSON-RPC answer.
  const json = text.trimStart().startsWith("{") ? text : (/^data: (.+)$/m.exec(text)?.[1] ?? "");
  const answer = JSON.parse(json) as { result?: { isError?: boolean; content?: Array<{ text?: string }> } };
  assert.notEqual(answer.result?.isError, true, `MCP tool error: ${answer.result?.content?.[0]?.text?.slice(0, 300)}`);
  return JSON.parse(answer.result?.content?.[0]?.text ?? "null") as { id: number };
}
