/**
 * `npm run authorize` end to end: the OAuth flow, then one write of client_id, client_secret and the
 * new tokens into the chosen store (a Secrets Manager secret, created when missing, or a token file, which
 * the MCP server and the plugin read), keeping the record's other fields. With `--revoke`: Strava's revocation of the stored
 * grant, then the tokens are removed from the store. Returns the lines to show the operator; none holds
 * a secret.
 */
import { openAuthorizationStore } from "../../credentials/store-choice.ts";
import { createHttpSender, type SendHttp } from "../../common/upstream/http-exchange.ts";
import { revokeGrant } from "../../strava/strava-oauth.ts";
import type { AuthorizeOptions, RevokeOptions } from "./authorize-options.ts";
import { AuthorizationError, runAuthorizationFlow, type Authorization } from "./oauth-authorization.ts";

/** How long one write to the store may take (the operator is waiting at the terminal). */
const storeDeadlineMs = 30_000;

export async function runAuthorize(options: AuthorizeOptions, io: { print(line: string): void; http?: SendHttp }): Promise<Authorization> {
  const store = await openAuthorizationStore(options.target);
  const authorization = await runAuthorizationFlow({
    ...options,
    http: io.http,
    onAuthorizeUrl(url) {
      io.print(`Open this URL in a browser signed in to the athlete's Strava account, and approve every box:\n\n  ${url}\n`);
      io.print(`Waiting up to ${options.timeoutMs / 1000} s for Strava to redirect back to 127.0.0.1 ...`);
    },
    async store({ tokens }) {
      await store.writeAuthorization(
        {
          client_id: options.clientId,
          client_secret: options.clientSecret,
          refresh_token: tokens.refresh_token,
          access_token: tokens.access_token,
          expires_at: tokens.expires_at,
        },
        AbortSignal.timeout(storeDeadlineMs),
      );
    },
  });
  const who = authorization.athlete.name
    ? `${authorization.athlete.name}${authorization.athlete.id !== undefined ? ` (athlete ${authorization.athlete.id})` : ""}`
    : "the athlete";
  io.print(`Authorized ${who} with scopes ${authorization.grantedScopes.join(",")}.`);
  io.print(`Stored client_id, client_secret, refresh_token, access_token and expires_at in the ${store.description}.`);
  io.print(
    `The access token is valid until ${new Date(authorization.tokens.expires_at * 1000).toISOString()}; the tools refresh it from then on.`,
  );
  return authorization;
}

/**
 * Revokes the grant the store holds, then clears its tokens: in that order, so a revocation that fails
 * leaves everything as it was and can be run again. A store without a grant has nothing to revoke.
 */
export async function runRevoke(
  options: RevokeOptions,
  io: { print(line: string): void; http?: SendHttp },
): Promise<"revoked" | "nothing stored"> {
  const store = await openAuthorizationStore(options.target);
  const stored = await store.readFields(AbortSignal.timeout(storeDeadlineMs));
  if (stored === undefined) {
    // A typo in the name, region or path must not read as "nothing to revoke": the grant would stay live.
    throw new AuthorizationError(
      `The ${store.description} does not exist, so its grant cannot be revoked: check the ${
        options.target.kind === "token-file" ? "path (--token-file)" : "secret's name and region (--secret-name, --region)"
      }. Nothing was changed.`,
    );
  }
  if (stored.refresh_token === undefined) {
    io.print(`The ${store.description} holds no refresh token: there is no grant to revoke. Nothing was changed.`);
    return "nothing stored";
  }
  const clientId = options.clientId ?? stored.client_id;
  const clientSecret = options.clientSecret ?? stored.client_secret;
  if (clientId === undefined || clientSecret === undefined) {
    throw new AuthorizationError(
      `The ${store.description} holds no client_id or client_secret: set STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET (or --client-id/--client-secret) to revoke its grant. Nothing was changed.`,
    );
  }
  await revokeGrant({
    revokeUrl: options.revokeUrl,
    clientId,
    clientSecret,
    token: stored.refresh_token,
    timeoutMs: options.timeoutMs,
    http: io.http ?? createHttpSender(),
  });
  io.print(`Strava revoked the athlete's grant to application ${clientId}: its refresh and access tokens no longer work.`);
  await store.clearTokens(AbortSignal.timeout(storeDeadlineMs));
  io.print(`Removed refresh_token, access_token and expires_at from the ${store.description}${whatStays(stored)}.`);
  io.print("Servers and the plugin using it now report that the athlete must authorize again; run npm run authorize to reconnect.");
  return "revoked";
}

/**
 * What the store still holds of the application once its tokens are gone, said from what it held: a token file
 * that the STRAVA_* variables fed holds no client_id or client_secret (they came from the environment).
 */
function whatStays(stored: { client_id?: string; client_secret?: string }): string {
  const held = (["client_id", "client_secret"] as const).filter((field) => stored[field] !== undefined);
  if (held.length === 2) return " (client_id and client_secret stay)";
  if (held.length === 1) return ` (${held[0]} stays; it held no ${held[0] === "client_id" ? "client_secret" : "client_id"})`;
  return " (it held no client_id or client_secret)";
}
