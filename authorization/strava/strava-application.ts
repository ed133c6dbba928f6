/**
 * Which Strava OAuth mode signs athletes in with, decided once at start-up:
 *
 * - `STRAVA_CLIENT_ID` and `STRAVA_CLIENT_SECRET`: that Strava API application (its Authorization
 *   Callback Domain must be PUBLIC_URL's host);
 * - `FITNESS_SECRET_NAME`: the application's `client_id` and `client_secret` from that Secrets Manager
 *   secret (`AWS_REGION`), the hosted deployment's way of keeping the client secret out of the
 *   environment; the secret's token fields, if any, are not used: every athlete signs in;
 * - neither: the built-in sandbox, started in this process, plays Strava (its authorize page approves at
 *   once for the athlete signed in there; `SANDBOX_SECOND_ATHLETE` adds a second one).
 *
 * A refresh token in the environment (`STRAVA_REFRESH_TOKEN`) has no use here and is ignored with a
 * warning. The core's settings come from the composition root (tools/composition/core-settings.ts), which
 * refuses intervals.icu's key: OAuth mode serves Strava only. `STRAVA_API_BASE`, `STRAVA_TOKEN_URL`, `STRAVA_AUTHORIZE_URL` and `STRAVA_REVOKE_URL` point
 * at another Strava-shaped server (a sandbox started with `npm run sandbox`).
 */
import type { Logger } from "../../common/logger.ts";
import type { UpstreamSettings } from "../../strava/strava-settings.ts";
import { isSet, readSetting, type Environment } from "../../common/settings/setting.ts";
import {
  awsRegion,
  fitnessSecretName,
  stravaClientId,
  stravaClientSecret,
  stravaRefreshToken,
} from "../../common/settings/credential-variables.ts";
import { readCoreSettings, type CoreSettings } from "../../tools/composition/core-settings.ts";
import { createHttpSender } from "../../strava/http-exchange.ts";
import { revokeUrlBeside } from "../../strava/strava-oauth.ts";
import { StartupError } from "../../mcp-adapter/startup-error.ts";
import type { UpstreamKind } from "../../mcp-adapter/upstream-choice.ts";
import { startBuiltInSandbox } from "../../mcp-adapter/upstream-choice.ts";
import type { OAuthSettings } from "../oauth-settings.ts";
import type { StravaApplication } from "./strava-sign-in.ts";
import { messageOf } from "../../common/named-error.ts";
import { upstreamKindAt } from "../../mcp-adapter/upstream-kind.ts";

export interface OAuthUpstream {
  kind: UpstreamKind;
  strava: StravaApplication;
  settings: UpstreamSettings;
  /** Deadline of each store call (FITNESS_STORE_TIMEOUT_MS). */
  storeTimeoutMs: number;
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

/** Whether any variable naming a Strava application is set (else the built-in sandbox plays Strava). */
export function stravaApplicationNamed(env: Environment): boolean {
  return isSet(env, stravaClientId) || isSet(env, stravaClientSecret) || isSet(env, fitnessSecretName);
}

/**
 * The Strava application OAuth mode signs athletes in with, from STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET
 * or FITNESS_SECRET_NAME; undefined when none is set (the built-in sandbox plays Strava).
 */
export async function stravaApplicationFromEnv(
  env: Environment,
  oauth: OAuthSettings,
  core: CoreSettings = readCoreSettings(env, "oauth"),
): Promise<{ strava: StravaApplication; settings: UpstreamSettings } | undefined> {
  if (!stravaApplicationNamed(env)) return undefined;
  const clientId = readSetting(env, stravaClientId);
  const clientSecret = readSetting(env, stravaClientSecret);
  const secretName = readSetting(env, fitnessSecretName);
  if (core.upstream?.log !== "strava") throw new StartupError("OAuth mode serves Strava only.");
  const settings = core.upstream.api;
  let application: { client_id: string; client_secret: string };
  if (secretName) application = await applicationFromSecret(secretName, readSetting(env, awsRegion), core.storeTimeoutMs);
  else if (clientId && clientSecret) application = { client_id: clientId, client_secret: clientSecret };
  else
    throw new StartupError(
      `Set both STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET (your Strava API application's), or FITNESS_SECRET_NAME; ${clientId ? "STRAVA_CLIENT_SECRET" : "STRAVA_CLIENT_ID"} is missing.`,
    );
  return {
    strava: {
      clientId: application.client_id,
      clientSecret: application.client_secret,
      authorizeUrl: oauth.stravaAuthorizeUrl,
      tokenUrl: settings.tokenUrl,
      revokeUrl: oauth.stravaRevokeUrl ?? revokeUrlBeside(settings.tokenUrl),
      timeoutMs: settings.timeoutMs,
      http: createHttpSender(),
    },
    settings,
  };
}

async function applicationFromSecret(
  secretName: string,
  region: string,
  timeoutMs: number,
): Promise<{ client_id: string; client_secret: string }> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import("@aws-sdk/client-secrets-manager");
  const client = new SecretsManagerClient({ region, requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs } });
  let text: string | undefined;
  try {
    text = (await client.send(new GetSecretValueCommand({ SecretId: secretName, VersionStage: "AWSCURRENT" }))).SecretString;
  } catch (error) {
    throw new StartupError(
      `Could not read the Strava application from the Secrets Manager secret "${secretName}" (${region}): ${(error as Error).name}: ${messageOf(error)}`,
    );
  } finally {
    client.destroy();
  }
  let record: Record<string, unknown> = {};
  try {
    record = JSON.parse(text ?? "") as Record<string, unknown>;
  } catch {
    // reported below
  }
  const id = typeof record["client_id"] === "number" ? String(record["client_id"]) : record["client_id"];
  const secret = record["client_secret"];
  if (typeof id !== "string" || id === "" || typeof secret !== "string" || secret === "") {
    throw new StartupError(
      `The Secrets Manager secret "${secretName}" must hold JSON with the Strava application's client_id and client_secret.`,
    );
  }
  return { client_id: id, client_secret: secret };
}
