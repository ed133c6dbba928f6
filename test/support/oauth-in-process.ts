/**
 * OAuth mode inside the test process, put together as `npm start` and the hosted function put it together
 * (the product's own start: authorization/start-oauth-mode.ts through mcp-adapter/oauth-upstream.ts, its
 * state as local files in a scratch directory), on a sandbox started here as the Strava application's upstream,
 * and served through the web-standard edge (mcp-adapter/http/oauth-web-handler.ts: the route table, the OAuth
 * app, the SDK's handler for /mcp, /health). Nothing listens for the server: `fetch` hands a request for the
 * issuer's origin to the edge as a web `Request`, and sends anything else (the sandbox's pages and API) over the
 * network. Every log line is kept, for assertions on events and on secrets.
 *
 * What only a process shows (signals, real sockets and their limits, the launcher, exit codes) stays with the
 * child-process helper, test/support/oauth-server.ts.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../common/logger.ts";
import type { OAuthApp } from "../../authorization/oauth-app.ts";
import { oauthSettingsFromEnv, type OAuthSettings } from "../../authorization/oauth-settings.ts";
import type { AuthorizationStores } from "../../authorization/stores/authorization-stores.ts";
import { maxRequestBodyBytes } from "../../mcp-adapter/http/body-budget.ts";
import { createOAuthWebHandler, type OAuthWebHandler } from "../../mcp-adapter/http/oauth-web-handler.ts";
import { startOAuthModeOnUpstream, type OAuthUpstream } from "../../mcp-adapter/oauth-upstream.ts";
import { oauthMcpServerFactory } from "../../mcp-adapter/server/athlete-session.ts";
import { readServerIdentity } from "../../mcp-adapter/server-identity.ts";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../sandbox/server.ts";
import { capturingLogger } from "./core-harness.ts";

/**
 * The issuer when a test names none: a loopback origin whose port nothing listens on (the discard port), so a
 * request that missed `fetch` fails at once instead of reaching some other server.
 */
export const inProcessIssuer = "http://127.0.0.1:9";

export interface InProcessOAuth {
  issuer: string;
  mcpUrl: string;
  app: OAuthApp;
  /** What plays Strava, as the front end chose it (here the sandbox, as the Strava application). */
  upstream: OAuthUpstream;
  /** OAuth mode's settings as the server read them from its environment. */
  settings: OAuthSettings;
  stores: AuthorizationStores;
  sandbox: RunningSandbox;
  stateDirectory: string;
  /** The signing key the server keeps in its state directory (tests forge tokens with it). */
  signingKey(): Uint8Array;
  /** Every log line the server wrote (JSON, debug included). */
  logs: string[];
  /** The log lines of one event, parsed. */
  events(event: string): Record<string, unknown>[];
  /** A fetch for tests: the issuer's origin served in process (from `address`, default 127.0.0.1), anything else over the network. */
  fetch: typeof fetch;
  /** The same, as coming from `address` (the connection's address the edge sees). */
  fetchFrom(address: string | undefined): typeof fetch;
  close(): Promise<void>;
}

export async function startOAuthInProcess(
  options: {
    /** Settings beside the ones that make the sandbox the Strava application (MCP_ATHLETES, PUBLIC_URL, ...). */
    env?: Record<string, string>;
    sandbox?: SandboxOptions;
  } = {},
): Promise<InProcessOAuth> {
  const sandbox = await startSandbox({ uploadProcessingMs: 50, secondAthlete: true, ...options.sandbox });
  const stateDirectory = await mkdtemp(join(tmpdir(), "oauth-in-process-"));
  const env: Record<string, string> = {
    FITNESS_OAUTH_DIR: stateDirectory,
    STRAVA_CLIENT_ID: sandbox.clientId,
    STRAVA_CLIENT_SECRET: sandbox.clientSecret,
    STRAVA_API_BASE: sandbox.apiBase,
    STRAVA_TOKEN_URL: sandbox.tokenUrl,
    STRAVA_AUTHORIZE_URL: sandbox.authorizeUrl,
    STRAVA_REVOKE_URL: sandbox.revokeUrl,
    ...options.env,
  };
  const { logger, lines } = capturingLogger();
  try {
    const settings = oauthSettingsFromEnv(env, "127.0.0.1");
    const issuer = settings.publicUrl ?? inProcessIssuer;
    const identity = readServerIdentity();
    const started = await startOAuthModeOnUpstream({ env, settings, issuer, serverName: identity.name, logger, rescueTokens: false });
    const edge = webEdge(started.app, logger);
    const fetchFrom =
      (address: string | undefined): typeof fetch =>
      (input, init) => {
        const request = new Request(input, init);
        if (new URL(request.url).origin !== started.app.issuer) return fetch(request);
        return edge.fetch(request, address);
      };
    return {
      issuer: started.app.issuer,
      mcpUrl: `${started.app.issuer}/mcp`,
      app: started.app,
      upstream: started.upstream,
      settings,
      stores: started.stores,
      sandbox,
      stateDirectory,
      signingKey: () => Buffer.from(readFileSync(join(stateDirectory, "signing-key"), "utf8").trim(), "base64url"),
      logs: lines,
      events: (event) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line["event"] === event),
      fetch: fetchFrom("127.0.0.1"),
      fetchFrom,
      close: async () => {
        await edge.close();
        await started.app.settle();
        await started.upstream.close();
        await sandbox.close();
        await rm(stateDirectory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await sandbox.close();
    await rm(stateDirectory, { recursive: true, force: true });
    throw error;
  }
}

/** The web-standard edge as the hosted function builds it: each MCP request served for the athlete its access token names. */
function webEdge(app: OAuthApp, logger: Logger): OAuthWebHandler {
  const identity = readServerIdentity();
  const factory = oauthMcpServerFactory({ sessions: app.sessions, identity, logger });
  return createOAuthWebHandler({
    app,
    factory,
    logger,
    maxRequestBodySize: maxRequestBodyBytes,
    health: () => ({ status: "ok", name: identity.name, version: identity.version, auth: "oauth", issuer: app.issuer }),
  });
}
