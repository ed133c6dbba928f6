/**
 * The Strava application OAuth mode signs athletes in with, read once at start-up:
 *
 * - `STRAVA_CLIENT_ID` and `STRAVA_CLIENT_SECRET`: that Strava API application (its Authorization
 *   Callback Domain must be PUBLIC_URL's host);
 * - `FITNESS_SECRET_NAME`: the application's `client_id` and `client_secret` from that Secrets Manager
 *   secret (`AWS_REGION`), the hosted deployment's way of keeping the client secret out of the
 *   environment; the secret's token fields, if any, are not used: every athlete signs in;
 * - neither: none here; the front end starts the built-in sandbox in its place (mcp-adapter/oauth-upstream.ts).
 *
 * The core's settings come from the composition root (tools/composition/core-settings.ts), which refuses
 * intervals.icu's key: OAuth mode serves Strava only. `STRAVA_API_BASE`, `STRAVA_TOKEN_URL`,
 * `STRAVA_AUTHORIZE_URL` and `STRAVA_REVOKE_URL` point at another Strava-shaped server (a sandbox started with
 * `npm run sandbox`).
 */
import type { UpstreamSettings } from "../../strava/strava-settings.ts";
import { isSet, readSetting, type Environment } from "../../common/settings/setting.ts";
import { awsRegion, fitnessSecretName, stravaClientId, stravaClientSecret } from "../../common/settings/credential-variables.ts";
import { readCoreSettings, type CoreSettings } from "../../tools/composition/core-settings.ts";
import { createHttpSender } from "../../common/upstream/http-exchange.ts";
import { revokeUrlBeside } from "../../strava/strava-oauth.ts";
import { ConfigurationError } from "../../common/configuration-error.ts";
import type { OAuthSettings } from "../oauth-settings.ts";
import type { StravaApplication } from "./strava-sign-in.ts";
import { messageOf } from "../../common/named-error.ts";

/** What plays Strava for OAuth mode: the application athletes sign in to, its API's settings, and the store deadline. */
export interface OAuthStrava {
  strava: StravaApplication;
  settings: UpstreamSettings;
  /** Deadline of each store call (FITNESS_STORE_TIMEOUT_MS). */
  storeTimeoutMs: number;
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
  if (core.upstream?.log !== "strava") throw new ConfigurationError("OAuth mode serves Strava only.");
  const settings = core.upstream.api;
  let application: { client_id: string; client_secret: string };
  if (secretName) application = await applicationFromSecret(secretName, readSetting(env, awsRegion), core.storeTimeoutMs);
  else if (clientId && clientSecret) application = { client_id: clientId, client_secret: clientSecret };
  else
    throw new ConfigurationError(
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
    throw new ConfigurationError(
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
    throw new ConfigurationError(
      `The Secrets Manager secret "${secretName}" must hold JSON with the Strava application's client_id and client_secret.`,
    );
  }
  return { client_id: id, client_secret: secret };
}
