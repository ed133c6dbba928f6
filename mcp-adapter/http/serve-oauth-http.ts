/**
 * OAuth mode over node:http, as `npm start` runs it with MCP_AUTH=oauth: the OAuth app (the server's own
 * authorization server with Strava sign-in, authorization/oauth-app.ts) on the same hardened edge as
 * bearer mode (http-routes.ts), each MCP request served for the athlete its access token names, and the
 * same shutdown sequence (the athletes' token refreshes in progress are waited for and saved).
 */
import type { Logger } from "../../common/logger.ts";
import type { HttpSettings } from "../adapter-settings.ts";
import { CallsInFlight } from "../server/calls-in-flight.ts";
import type { createMcpHttpRoutes as CreateRoutes, McpHttpRoutes } from "./http-routes.ts";
import type { ListeningHttp } from "./http-server.ts";
import type { ServerIdentity } from "../server-identity.ts";
import { createShutdown, httpShutdownSteps } from "../shutdown.ts";
import type { HealthAnswer } from "../../credentials/credential-health.ts";
import type { OAuthApp } from "../../authorization/oauth-app.ts";
import { oauthSettingsFromEnv, type OAuthSettings } from "../../authorization/oauth-settings.ts";
import { signInAgainHealth } from "../../authorization/sign-in-again.ts";
import { startOAuthModeOnUpstream, type OAuthUpstream } from "../oauth-upstream.ts";
import { oauthMcpServerFactory } from "../server/athlete-session.ts";

export interface OAuthHttpOptions {
  http: HttpSettings;
  listening: ListeningHttp;
  createMcpHttpRoutes: typeof CreateRoutes;
  identity: ServerIdentity;
  logger: Logger;
  /** Writes the log lines still batched (before the plain lines for a person in a terminal). */
  flushLogs: () => void;
}

export async function serveOAuthHttp(options: OAuthHttpOptions): Promise<void> {
  const { http, listening, identity, logger } = options;
  const settings = oauthSettingsFromEnv(process.env, http.host);
  const issuer = settings.publicUrl ?? new URL(listening.mcpUrl).origin;
  const started = await startOAuthModeOnUpstream({
    env: process.env,
    settings,
    issuer,
    serverName: identity.name,
    logger,
    rescueTokens: true,
  });
  const { app, upstream } = started;
  const exchanges = new CallsInFlight();
  const routes = oauthMcpHttpRoutes({ ...started, settings, issuer, http, identity, logger, exchanges }, options.createMcpHttpRoutes);
  listening.serve(routes.listener);
  announceOAuthListening({ ...options, issuer, upstream });
  const shutdown = createShutdown({
    steps: httpShutdownSteps({ listening, exchanges, routes, settleCore: () => app.settle(), closeUpstream: () => upstream.close() }),
    logger,
  });
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

/**
 * The node:http edge in OAuth mode: each MCP request served for the athlete its access token names, the Host
 * and Origin checks taking PUBLIC_URL's host beside the loopback names, and /health saying who must sign in again.
 */
export function oauthMcpHttpRoutes(
  served: {
    app: OAuthApp;
    upstream: Pick<OAuthUpstream, "kind">;
    settings: OAuthSettings;
    issuer: string;
    http: Pick<HttpSettings, "allowedHostnames" | "allowedOriginHostnames">;
    identity: ServerIdentity;
    logger: Logger;
    exchanges: CallsInFlight;
  },
  createMcpHttpRoutes: typeof CreateRoutes,
): McpHttpRoutes {
  const { app, http, identity, logger } = served;
  const factory = oauthMcpServerFactory({ sessions: app.sessions, identity, logger });
  const publicHost = new URL(served.issuer).hostname;
  return createMcpHttpRoutes({
    factory,
    authToken: "",
    oauth: app,
    // Behind a proxy on this machine, requests carry PUBLIC_URL's host: accepted beside the loopback names.
    allowedHostnames:
      http.allowedHostnames && !http.allowedHostnames.includes(publicHost) ? [...http.allowedHostnames, publicHost] : http.allowedHostnames,
    allowedOriginHostnames: [...new Set([...http.allowedOriginHostnames, publicHost])],
    health: () => oauthHealth(served),
    exchanges: served.exchanges,
    logger,
  });
}

/** /health in OAuth mode: needs no token, so athletes are named only when nobody else can reach it (neither where it listens nor PUBLIC_URL is beyond loopback). */
async function oauthHealth(served: {
  app: OAuthApp;
  upstream: Pick<OAuthUpstream, "kind">;
  settings: OAuthSettings;
  identity: ServerIdentity;
}): Promise<HealthAnswer> {
  const { app, identity } = served;
  const signInAgain = signInAgainHealth(await app.sessions.athletesToSignInAgain(), !served.settings.beyondLoopback);
  return {
    httpStatus: 200,
    body: {
      status: signInAgain ? "degraded" : "ok",
      name: identity.name,
      version: identity.version,
      upstream: served.upstream.kind,
      auth: "oauth",
      issuer: app.issuer,
      ...(signInAgain ? { sign_in_again: signInAgain } : {}),
    },
  };
}

/** What start-up says once the server listens: the Host check's absence beyond loopback, the `listening` line, and a few plain lines for a person at a terminal. */
function announceOAuthListening(options: OAuthHttpOptions & { issuer: string; upstream: OAuthUpstream }): void {
  const { http, listening, identity, logger, issuer, upstream } = options;
  if (!http.allowedHostnames) {
    logger.warn("host_check_off", {
      host: http.host,
      message:
        "Bound beyond loopback in OAuth mode: the Host header is not checked, and anyone who reaches this address can try to sign in; only the athletes in MCP_ATHLETES are served. Keep TLS in front (PUBLIC_URL is https).",
    });
  }
  logger.info("listening", {
    transport: "http",
    auth: "oauth",
    url: `${issuer}/mcp`,
    port: listening.port,
    upstream: upstream.kind,
    version: identity.version,
    ...(upstream.sandbox ? { sandbox: upstream.sandbox.baseUrl } : {}),
  });
  if (process.stderr.isTTY) {
    options.flushLogs();
    process.stderr.write(
      `\n  MCP server (OAuth mode) at ${issuer}/mcp\n  Add it to a client as a remote MCP server with that URL; the client signs in with Strava${upstream.kind === "sandbox" ? " (here: the sandbox, made-up athletes)" : ""}.\n\n`,
    );
  }
}
