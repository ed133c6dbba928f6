/**
 * Command-line options of `npm run authorize`, read from the arguments and the environment.
 * Every mistake is an `AuthorizeUsageError` that says what to pass instead.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ConfigurationError } from "../../common/configuration-error.ts";
import { messageOf } from "../../common/named-error.ts";
import {
  awsRegion,
  defaultTokenFileText,
  readTokenFile,
  stravaClientId,
  stravaClientSecret,
} from "../../common/settings/credential-variables.ts";
import { home } from "../../common/settings/host-variables.ts";
import { readSetting, type Environment } from "../../common/settings/setting.ts";
import { defaultStravaTimeoutMs, stravaAuthorizeUrl, stravaRevokeUrl, stravaTokenUrl } from "../../common/settings/strava-variables.ts";
import type { AuthorizationTarget } from "../../credentials/store-choice.ts";
import { revokeUrlBeside } from "../../strava/strava-oauth.ts";

/** Where the grant goes: a Secrets Manager secret, or a token file (credentials/store-choice.ts). */
export type CredentialTarget = AuthorizationTarget;

export interface AuthorizeOptions {
  clientId: string;
  clientSecret: string;
  target: CredentialTarget;
  authorizeUrl: string;
  tokenUrl: string;
  /** Strava's revocation endpoint (`STRAVA_REVOKE_URL`, else beside the token URL). */
  revokeUrl: string;
  /** Port of the local callback server on 127.0.0.1; 0 picks a free one. */
  port: number;
  timeoutMs: number;
}

/** `--revoke`: end the stored grant. The application's credentials may come from the store instead. */
export interface RevokeOptions {
  revoke: true;
  clientId: string | undefined;
  clientSecret: string | undefined;
  target: CredentialTarget;
  revokeUrl: string;
  timeoutMs: number;
}

export class AuthorizeUsageError extends ConfigurationError {}

export const usage = `Usage: npm run authorize -- --store secrets-manager [--secret-name NAME] [--region REGION]
       npm run authorize -- --store file [--token-file PATH]
       npm run authorize -- --revoke --store secrets-manager|file [...]

Runs Strava's one-time OAuth authorization for one athlete and stores client_id, client_secret,
refresh_token, access_token and expires_at in the Secrets Manager secret (created or updated, other
fields kept) or in a token file (mode 0600), which the MCP server (FITNESS_TOKEN_FILE) and the OpenClaw
plugin (credentialStore "token-file", npm run setup:coach -- --credentials token-file) may share.

With --revoke it ends the stored grant instead: Strava's POST /oauth/revoke with the stored refresh
token, then the tokens are removed from the store (every other field, client_id and client_secret
among them, stays). The coach has no access until the next authorization.

Options:
  --store secrets-manager|file  where the credentials are (required)
  --revoke                      revoke the stored grant and clear the tokens
  --secret-name NAME            secret name or ARN (default fitness-credentials)
  --region REGION               AWS region of the secret (default AWS_REGION, else us-west-2)
  --token-file PATH             token file (default FITNESS_TOKEN_FILE, else ${defaultTokenFileText})
  --client-id ID                Strava application's client id (default STRAVA_CLIENT_ID)
  --client-secret SECRET        its client secret (default STRAVA_CLIENT_SECRET; prefer the variable:
                                arguments are visible to other users of the machine)
  --port N                      port of the local callback on 127.0.0.1 (default: a free one)
  --timeout SECONDS             how long to wait for the browser (default 300)

Environment: STRAVA_AUTHORIZE_URL, STRAVA_TOKEN_URL and STRAVA_REVOKE_URL (default: beside the token
URL) point at a non-default upstream.`;

export function parseAuthorizeOptions(argv: readonly string[], env: Environment): AuthorizeOptions | RevokeOptions | "help" {
  const values = readArguments(argv);
  if (values["help"] === true) return "help";
  const text = (name: string): string | undefined => {
    const value = values[name];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };
  const target = credentialTarget(text, env, storeAdvice);
  const clientId = text("client-id") ?? readSetting(env, stravaClientId);
  const clientSecret = text("client-secret") ?? readSetting(env, stravaClientSecret);
  const { tokenUrl, revokeUrl, authorizeUrl } = stravaUrls(env);
  if (values["revoke"] === true) {
    if (text("port")) throw new AuthorizeUsageError("--port applies to an authorization, not to --revoke.");
    return { revoke: true, clientId, clientSecret, target, revokeUrl, timeoutMs: defaultStravaTimeoutMs };
  }
  const missing = [
    clientId ? undefined : "STRAVA_CLIENT_ID (or --client-id)",
    clientSecret ? undefined : "STRAVA_CLIENT_SECRET (or --client-secret)",
  ].filter((name): name is string => name !== undefined);
  if (missing.length > 0) {
    throw new AuthorizeUsageError(
      `Set ${missing.join(" and ")}: the Client ID and Client Secret of your application at https://www.strava.com/settings/api.`,
    );
  }

  return {
    clientId: clientId as string,
    clientSecret: clientSecret as string,
    target,
    authorizeUrl,
    tokenUrl,
    revokeUrl,
    port: readInteger(text("port"), "--port", 0, 0, 65_535),
    timeoutMs: readInteger(text("timeout"), "--timeout", 300, 5, 3600) * 1000,
  };
}

/** The arguments as the command knows them; an unknown or malformed one is a usage error with the usage text. */
function readArguments(argv: readonly string[]): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        store: { type: "string" },
        "secret-name": { type: "string" },
        region: { type: "string" },
        "token-file": { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        port: { type: "string" },
        timeout: { type: "string" },
        revoke: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    throw new AuthorizeUsageError(`${messageOf(error)}\n\n${usage}`);
  }
}

/** What to pass when --store is missing or unknown, and the usage. */
const storeAdvice = `use --store secrets-manager (an AWS Secrets Manager secret) or --store file (a token file on this computer, for the MCP server or the OpenClaw plugin).\n\n${usage}`;

/**
 * Where the grant or key goes, from --store and the options that belong to it (`text` reads one, trimmed, or
 * undefined); an option of the other store, a malformed region or a missing or unknown store (then `advice` says
 * what to pass) is a usage error. Shared by `npm run authorize` and `npm run authorize:intervals`.
 */
export function credentialTarget(text: (name: string) => string | undefined, env: Environment, advice: string): CredentialTarget {
  const store = text("store");
  if (store === "secrets-manager") {
    if (text("token-file")) throw new AuthorizeUsageError("--token-file applies to --store file only.");
    const region = text("region") ?? readSetting(env, awsRegion);
    if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region))
      throw new AuthorizeUsageError(`--region must be an AWS region such as us-west-2; got "${region}".`);
    return { kind: "secrets-manager", secretName: text("secret-name") ?? "fitness-credentials", region };
  }
  if (store === "file") {
    if (text("secret-name") || text("region"))
      throw new AuthorizeUsageError("--secret-name and --region apply to --store secrets-manager only.");
    // A `~/` that reached us unexpanded (the shell leaves a quoted one alone) means the home folder, as it does
    // in the plugin's tokenFile, rather than a folder named "~" in the working directory.
    const named = text("token-file");
    const path = named?.startsWith("~/") ? join(readSetting(env, home) ?? homedir(), named.slice(2)) : named;
    return { kind: "token-file", path: path ?? readTokenFile(env).path };
  }
  throw new AuthorizeUsageError(`${store === undefined ? "--store is required" : `Unknown --store "${store}"`}: ${advice}`);
}

/** Strava's token, revocation and authorization URLs from the environment; a malformed one is a usage error. */
function stravaUrls(env: Environment): { tokenUrl: string; revokeUrl: string; authorizeUrl: string } {
  try {
    const tokenUrl = readSetting(env, stravaTokenUrl);
    const revokeUrl = readSetting(env, stravaRevokeUrl) ?? revokeUrlBeside(tokenUrl);
    return { tokenUrl, revokeUrl, authorizeUrl: readSetting(env, stravaAuthorizeUrl) };
  } catch (error) {
    throw new AuthorizeUsageError(messageOf(error));
  }
}

function readInteger(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new AuthorizeUsageError(`${name} must be a whole number from ${min} to ${max}; got "${value}".`);
  }
  return parsed;
}
