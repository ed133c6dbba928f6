/**
 * What plays Strava in OAuth mode, chosen once at start-up by the MCP server (npm start and the hosted function):
 * the Strava application the settings name (authorization/strava/strava-application.ts), or, when none is
 * named, the built-in sandbox started in this process (its authorize page approves at once for the athlete
 * signed in there; `SANDBOX_SECOND_ATHLETE` adds a second one). Then OAuth mode starts on it
 * (authorization/start-oauth-mode.ts), and the sandbox stops again when that fails.
 *
 * A refresh token in the environment (`STRAVA_REFRESH_TOKEN`) has no use here and is ignored with a warning.
 * The core's settings come from the composition root (tools/composition/core-settings.ts), which refuses
 * intervals.icu's key: OAuth mode serves Strava only.
 */
import type { Logger } from "../common/logger.ts";
import { messageOf } from "../common/named-error.ts";
import { readSetting, type Environment } from "../common/settings/setting.ts";
import { stravaRefreshToken } from "../common/settings/credential-variables.ts";
import { createHttpSender } from "../common/upstream/http-exchange.ts";
import { readCoreSettings, type CoreSettings } from "../tools/composition/core-settings.ts";
import type { OAuthSettings } from "../authorization/oauth-settings.ts";
import { startOAuthMode, type StartedOAuthMode } from "../authorization/start-oauth-mode.ts";
import { stravaApplicationFromEnv, type OAuthStrava } from "../authorization/strava/strava-application.ts";
import { StartupError } from "./startup-error.ts";
import { startBuiltInSandbox, type UpstreamKind } from "./upstream-choice.ts";
import { upstreamKindAt } from "./upstream-kind.ts";

/** What plays Strava for OAuth mode, as this front end chose it, and how to stop it. */
export interface OAuthUpstream extends OAuthStrava {
  kind: UpstreamKind;
  /** The embedded sandbox's controls, for the sandbox only (tests sign athletes in and out). */
  sandbox?: { baseUrl: string };
  close(): Promise<void>;
}

export async function chooseOAuthUpstream(env: Environment, oauth: OAuthSettings, logger: Logger): Promise<OAuthUpstream> {
  // The core's settings, as every front end reads them (tools/composition/): Strava's addresses and the store
  // deadline; intervals.icu's key is refused there, since OAuth mode serves Strava only.
  let core: CoreSettings;
  try {
    core = readCoreSettings(env, "oauth");
  } catch (error) {
    throw new StartupError(messageOf(error));
  }
  for (const [event, message] of core.ignored) logger.warn(event, { message });
  const storeTimeoutMs = core.storeTimeoutMs;
  if (readSetting(env, stravaRefreshToken) !== undefined) {
    logger.warn("strava_refresh_token_ignored", {
      message: "MCP_AUTH=oauth: every athlete signs in with Strava, so STRAVA_REFRESH_TOKEN is not used.",
    });
  }
  const noop = async (): Promise<void> => {};
  const configured = await stravaApplicationFromEnv(env, oauth, core);
  if (configured !== undefined) {
    const kind = await upstreamKindAt(configured.settings.apiBase, "strava");
    logger.info("upstream_selected", {
      upstream: kind,
      auth: "oauth",
      application: configured.strava.clientId,
      ...(kind === "sandbox"
        ? { apiBase: configured.settings.apiBase, message: "STRAVA_API_BASE points at the sandbox (made-up athletes), not Strava." }
        : {}),
    });
    return { kind, strava: configured.strava, settings: configured.settings, storeTimeoutMs, close: noop };
  }
  const sandbox = await startBuiltInSandbox(env);
  logger.warn("upstream_sandbox", {
    message:
      "No Strava application is set (STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET, or FITNESS_SECRET_NAME): athletes sign in at the built-in SANDBOX, " +
      "simulated athletes with made-up activities, NOT Strava.",
    sandboxBaseUrl: sandbox.baseUrl,
  });
  if (core.upstream?.log !== "strava") throw new StartupError("OAuth mode serves Strava only.");
  const timeoutMs = core.upstream.api.timeoutMs;
  return {
    kind: "sandbox",
    strava: {
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      authorizeUrl: sandbox.authorizeUrl,
      tokenUrl: sandbox.tokenUrl,
      revokeUrl: sandbox.revokeUrl,
      timeoutMs,
      http: createHttpSender(),
    },
    settings: { timeoutMs, apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl },
    storeTimeoutMs,
    sandbox: { baseUrl: sandbox.baseUrl },
    close: () => sandbox.close(),
  };
}

/** OAuth mode started on the Strava chosen here; the built-in sandbox is stopped again when the start fails. */
export async function startOAuthModeOnUpstream(
  options: Omit<Parameters<typeof startOAuthMode>[0], "upstream">,
): Promise<StartedOAuthMode & { upstream: OAuthUpstream }> {
  const upstream = await chooseOAuthUpstream(options.env, options.settings, options.logger);
  try {
    return { ...(await startOAuthMode({ ...options, upstream })), upstream };
  } catch (error) {
    await upstream.close().catch(() => {});
    throw error;
  }
}
