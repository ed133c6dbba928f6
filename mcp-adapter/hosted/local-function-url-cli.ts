/**
 * `npm run hosted`: the hosted function (OAuth mode on Lambda) on http://127.0.0.1:8788 through a local
 * stand-in for its function URL, with the settings the template gives it: MCP_AUTH=oauth, PUBLIC_URL,
 * MCP_OAUTH_TABLE, MCP_SIGNING_KEY_SECRET, FITNESS_SECRET_NAME (or STRAVA_CLIENT_ID/SECRET), AWS_REGION
 * and the AWS SDK's own endpoint variables. `--bundle FILE` runs the built bundle instead of the sources.
 * PUBLIC_URL defaults to the local address (PORT=0 picks a free port). Ctrl-C or SIGTERM stops it.
 *
 * With no Strava application set, the built-in sandbox plays Strava (the handler allows it on a loopback
 * PUBLIC_URL only) and, unless MCP_OAUTH_TABLE or FITNESS_OAUTH_DIR says otherwise, the state lives in a
 * scratch directory removed at exit: the sandbox's grants die with it, so kept state would only hold dead tokens.
 *
 * The function starts at once (one request to /health, as its first caller would), so what it serves, or why
 * it could not start, is on standard error before the `local_function_url` line that says it is ready.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { synchronousStderrLogger } from "../../common/logger.ts";
import { messageOf } from "../../common/named-error.ts";
import { fitnessOauthDir, mcpOauthTable, publicUrl, readOauthDirectory } from "../../common/settings/oauth-variables.ts";
import { defaultHostedPort, port as portSetting } from "../../common/settings/server-variables.ts";
import { isSet, readSetting } from "../../common/settings/setting.ts";
import { isLoopbackHostname } from "../../authorization/oauth-settings.ts";
import { stravaApplicationNamed } from "../../authorization/strava/strava-application.ts";
import { startLocalFunctionUrl, type LocalFunctionUrl } from "./local-function-url.ts";
import { localHostedBanner } from "./local-hosted-banner.ts";

const logger = synchronousStderrLogger("mcp-hosted-local");

function fail(message: string): never {
  logger.error("startup_failed", { message });
  process.exit(1);
}

const args = process.argv.slice(2);
const bundleIndex = args.indexOf("--bundle");
const bundle = bundleIndex >= 0 ? args[bundleIndex + 1] : undefined;
let port = defaultHostedPort;
try {
  port = readSetting(process.env, portSetting) ?? port;
} catch (error) {
  fail(messageOf(error));
}
process.env["MCP_AUTH"] ??= "oauth";

if (bundleIndex >= 0 && (bundle === undefined || bundle.startsWith("-")))
  fail("--bundle needs the bundle's file: npm run hosted -- --bundle FILE (npm run build:hosted writes it).");
const chosenPublicUrl = readSetting(process.env, publicUrl);
// The handler's own rule (lambda-handler.ts): no application and a loopback PUBLIC_URL (ours by default). Beyond
// loopback it refuses to start, as a deployment does; that is left to it.
const sandbox =
  !stravaApplicationNamed(process.env) &&
  isLoopbackHostname(chosenPublicUrl === undefined ? "127.0.0.1" : (URL.parse(chosenPublicUrl)?.hostname ?? ""));
if (sandbox && bundle !== undefined) {
  fail(
    "The bundle leaves the built-in sandbox out (a deployment always talks to Strava): with --bundle, set FITNESS_SECRET_NAME, " +
      "or STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET (those npm run sandbox prints, with its STRAVA_API_BASE, STRAVA_TOKEN_URL and STRAVA_AUTHORIZE_URL).",
  );
}
const scratch =
  sandbox && !isSet(process.env, mcpOauthTable) && !isSet(process.env, fitnessOauthDir)
    ? mkdtempSync(join(tmpdir(), "fitness-hosted-"))
    : undefined;
if (scratch !== undefined) process.env[fitnessOauthDir.name] = scratch;
const removeScratch = (): void => {
  if (scratch === undefined) return;
  try {
    // Retried: a write the handler had under way when the stop came may add a file while the directory goes.
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  } catch (error) {
    logger.warn("scratch_state_left", {
      path: scratch,
      message: `Could not remove the scratch state directory: ${messageOf(error)}. Remove it by hand.`,
    });
  }
};

// Installed before the start, so a stop while it starts removes the scratch state too; a second signal while
// the first one is closing changes nothing.
let local: LocalFunctionUrl | undefined;
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void (local?.close() ?? Promise.resolve()).then(() => {
      removeScratch();
      process.exit(0);
    });
  });
}
try {
  local = await startLocalFunctionUrl({ port, ...(bundle ? { bundle } : {}) });
} catch (error) {
  removeScratch();
  fail(messageOf(error));
}

// The handler reads its settings on the first request: the address is known by then (PORT=0 too).
process.env["PUBLIC_URL"] ??= local.url;
const origin = readSetting(process.env, publicUrl) ?? local.url;
const table = readSetting(process.env, mcpOauthTable);
const state = table !== undefined ? `DynamoDB table ${table}` : `local files in ${readOauthDirectory(process.env)}`;

const health = await firstRequest(`${local.url}/health`);
const upstream = typeof health.body["upstream"] === "string" ? health.body["upstream"] : undefined;
if (health.status === 503) {
  logger.warn("function_not_started", {
    message:
      "The function could not start (startup_failed above says why): it answers 503, and tries again at a request 30 s from now. Fix the setting and wait, or restart.",
  });
} else if (health.status === 0) {
  logger.warn("first_request_failed", {
    message: `Could not reach ${local.url}/health (${String(health.body["error"])}): the function starts at the first request that reaches it.`,
  });
}
logger.info("local_function_url", {
  url: local.url,
  mcp: `${origin}/mcp`,
  handler: bundle ?? "mcp-adapter/hosted/lambda-handler.ts",
  ...(upstream !== undefined ? { upstream } : {}),
  state: scratch !== undefined ? `${state} (removed when it stops)` : state,
});
if (process.stderr.isTTY && upstream !== undefined) {
  process.stderr.write(localHostedBanner({ mcpUrl: `${origin}/mcp`, upstream, state, scratch: scratch !== undefined }));
}

/** GET `url` with node:http (fetch refuses some ports a person may choose, such as 6000): its status and JSON body. */
function firstRequest(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve) => {
    get(url, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // not JSON: the status says enough
        }
        resolve({ status: response.statusCode ?? 0, body });
      });
    }).on("error", (error) => resolve({ status: 0, body: { error: messageOf(error) } }));
  });
}
