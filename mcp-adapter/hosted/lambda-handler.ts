/**
 * The MCP server on AWS Lambda behind a function URL (mcp-adapter/hosted/template.yaml): OAuth mode only, every
 * instance stateless, state in the DynamoDB table and the signing key in Secrets Manager
 * (MCP_OAUTH_TABLE, MCP_SIGNING_KEY_SECRET), the Strava application in Secrets Manager
 * (FITNESS_SECRET_NAME), PUBLIC_URL the function URL or a domain in front of it.
 *
 * Hono's Lambda adapter turns the function URL's event (payload 2.0: cookies apart from headers, base64
 * bodies) into a web-standard Request and the Response back, handled by the web-standard edge
 * (mcp-adapter/http/oauth-web-handler.ts). `npm start` serves node:http instead (http-routes.ts), but both
 * edges follow one route table (http/route-table.ts), so a request meets the same steps in the same order
 * on either. Start-up (reading the two
 * secrets) happens on the first request of an instance and is kept. A failed start-up is logged in full
 * (`startup_failed`: what failed, which secret, AWS's own words) and answered with a plain 503 that names
 * none of it, since anybody can call the function and AWS's messages carry names, regions and role ARNs;
 * it is tried again at most once per 30 s (startup-attempts.ts).
 *
 * Run on this machine (`npm run hosted`, PUBLIC_URL on loopback) with no Strava application set, the built-in
 * sandbox plays Strava, as it does for `npm start`; anywhere else no application is a failed start-up.
 */
import { signInAgainHealth } from "../../authorization/sign-in-again.ts";
import { Hono } from "hono";
import { getConnInfo, handle } from "hono/aws-lambda";
import { mcpAuth } from "../../common/settings/server-variables.ts";
import { readSetting, type Environment } from "../../common/settings/setting.ts";
import { synchronousStderrLogger, type Logger } from "../../common/logger.ts";
import { logLevelFromEnv } from "../adapter-settings.ts";
import { isLoopbackHostname, oauthSettingsFromEnv } from "../../authorization/oauth-settings.ts";
import { stravaApplicationNamed } from "../../authorization/strava/strava-application.ts";
import { createOAuthWebHandler, type OAuthWebHandler } from "../http/oauth-web-handler.ts";
import { startOAuthModeOnUpstream } from "../oauth-upstream.ts";
import { oauthMcpServerFactory } from "../server/athlete-session.ts";
import { readServerIdentity } from "../server-identity.ts";
import { createStartupAttempts } from "./startup-attempts.ts";

/** A function URL takes request and response bodies up to 6 MB. */
const maxRequestBodySize = 6 * 1024 * 1024;

/**
 * 30 s between start-up attempts: a transient failure (a throttled or unreachable Secrets Manager) costs
 * callers half a minute at most, while a lasting one (a missing secret, a denied permission) costs at most
 * two Secrets Manager calls a minute per instance, whatever the traffic; its fix is a deployment, which
 * brings new instances anyway.
 */
const startupRetryMs = 30_000;

let logger: Logger = synchronousStderrLogger("mcp-hosted");

async function start(env: Environment): Promise<OAuthWebHandler> {
  logger = synchronousStderrLogger("mcp-hosted", logLevelFromEnv(env));
  if (readSetting(env, mcpAuth) !== "oauth") {
    throw new Error("The hosted function serves OAuth mode only: set MCP_AUTH=oauth (the template does).");
  }
  // A function is reached through its URL: PUBLIC_URL is required, and https unless it is loopback (npm run hosted).
  const settings = oauthSettingsFromEnv(env, undefined);
  const issuer = settings.publicUrl as string;
  // The built-in sandbox may stand in for Strava only on this machine: a deployment without its application must not
  // quietly serve made-up athletes.
  if (!stravaApplicationNamed(env) && !isLoopbackHostname(new URL(issuer).hostname)) {
    throw new Error(
      "No Strava application: set FITNESS_SECRET_NAME to the secret holding its client_id and client_secret (the template does). " +
        "The built-in sandbox plays Strava only when PUBLIC_URL is a loopback address (npm run hosted on this machine).",
    );
  }
  const identity = readServerIdentity();
  const { app, upstream } = await startOAuthModeOnUpstream({
    env,
    settings,
    issuer,
    serverName: identity.name,
    logger,
    rescueTokens: false,
  });
  const factory = oauthMcpServerFactory({ sessions: app.sessions, identity, logger });
  logger.info("hosted_ready", { issuer: app.issuer, upstream: upstream.kind, version: identity.version });
  return createOAuthWebHandler({
    app,
    factory,
    logger,
    maxRequestBodySize,
    health: async () => {
      // A function URL is reachable by anyone: athletes who must sign in again are counted, never named. What this
      // execution environment saw; another one starts with none.
      const signInAgain = signInAgainHealth(await app.sessions.athletesToSignInAgain(), false);
      return {
        status: signInAgain ? "degraded" : "ok",
        name: identity.name,
        version: identity.version,
        upstream: upstream.kind,
        auth: "oauth",
        issuer: app.issuer,
        ...(signInAgain ? { sign_in_again: signInAgain } : {}),
      };
    },
  });
}

const startup = createStartupAttempts({
  start: () => start(process.env),
  retryAfterMs: startupRetryMs,
  now: Date.now,
  onFailure: (error) => logger.error("startup_failed", { error, retry_in_s: startupRetryMs / 1000 }),
});

const web = new Hono();
web.all("*", async (c) => {
  const handler = await startup.ready();
  if (handler === undefined) {
    return Response.json(
      {
        error: "temporarily_unavailable",
        error_description:
          "The server could not start; try again in a minute. Its operator finds the reason in the function's log (startup_failed).",
      },
      { status: 503, headers: { "retry-after": String(Math.max(1, startup.secondsUntilRetry())), "cache-control": "no-store" } },
    );
  }
  return handler.fetch(c.req.raw, getConnInfo(c).remote.address);
});

export const handler = handle(web);
