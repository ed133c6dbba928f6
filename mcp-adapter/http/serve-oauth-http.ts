/**
 * OAuth mode over node:http, as `npm start` runs it with MCP_AUTH=oauth: the OAuth app (the server's own
 * authorization server with Strava sign-in, authorization/oauth-app.ts) on the same hardened edge as
 * bearer mode (http-routes.ts), each MCP request served for the athlete its access token names, and the
 * same shutdown sequence (the athletes' token refreshes in progress are waited for and saved).
 */
import type { Logger } from "../../common/logger.ts";
import { toolTable } from "../../tools/table.ts";
import type { HttpSettings } from "../adapter-settings.ts";
import { CallsInFlight } from "../server/calls-in-flight.ts";
import { createMcpServerFactory } from "../server/create-mcp-server.ts";
import type { createMcpHttpRoutes as CreateRoutes } from "./http-routes.ts";
import type { ListeningHttp } from "./http-server.ts";
import type { ServerIdentity } from "../server-identity.ts";
import { createShutdown, httpShutdownSteps } from "../shutdown.ts";
import { buildToolCatalog } from "../server/tool-catalog.ts";
import { oauthSettingsFromEnv } from "../../authorization/oauth-settings.ts";
import { signInAgainHealth } from "../../authorization/sign-in-again.ts";
import { startOAuthModeOnUpstream } from "../oauth-upstream.ts";
import { athleteSessionOf } from "../server/athlete-session.ts";

export async function serveOAuthHttp(options: {
  http: HttpSettings;
  listening: ListeningHttp;
  createMcpHttpRoutes: typeof CreateRoutes;
  identity: ServerIdentity;
  logger: Logger;
  /** Writes the log lines still batched (before the plain lines for a person in a terminal). */
  flushLogs: () => void;
}): Promise<void> {
  const { http, listening, identity, logger } = options;
  const settings = oauthSettingsFromEnv(process.env, http.host);
  const issuer = settings.publicUrl ?? new URL(listening.mcpUrl).origin;
  const { app, upstream } = await startOAuthModeOnUpstream({
    env: process.env,
    settings,
    issuer,
    serverName: identity.name,
    logger,
    rescueTokens: true,
  });
  const calls = new CallsInFlight();
  const factory = createMcpServerFactory({
    identity,
    catalog: buildToolCatalog(toolTable),
    calls,
    logger,
    session: athleteSessionOf((athleteId) => app.sessions.depsFor(athleteId)),
  });
  const exchanges = new CallsInFlight();
  const publicHost = new URL(issuer).hostname;
  const routes = options.createMcpHttpRoutes({
    factory,
    authToken: "",
    oauth: app,
    // Behind a proxy on this machine, requests carry PUBLIC_URL's host: accepted beside the loopback names.
    allowedHostnames:
      http.allowedHostnames && !http.allowedHostnames.includes(publicHost) ? [...http.allowedHostnames, publicHost] : http.allowedHostnames,
    allowedOriginHostnames: [...new Set([...http.allowedOriginHostnames, publicHost])],
    health: async () => {
      // /health needs no token: athletes are named only when nobody else can reach it (neither where it listens nor PUBLIC_URL is beyond loopback).
      const signInAgain = signInAgainHealth(await app.sessions.athletesToSignInAgain(), !settings.beyondLoopback);
      return {
        httpStatus: 200,
        body: {
          status: signInAgain ? "degraded" : "ok",
          name: identity.name,
          version: identity.version,
          upstream: upstream.kind,
          auth: "oauth",
          issuer: app.issuer,
          ...(signInAgain ? { sign_in_again: signInAgain } : {}),
        },
      };
    },
    exchanges,
    logger,
  });
  listening.serve(routes.listener);
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
  const shutdown = createShutdown({
    steps: httpShutdownSteps({ listening, exchanges, routes, settleCore: () => app.settle(), closeUpstream: () => upstream.close() }),
    logger,
  });
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}
