/**
 * `npm run authorize` end to end: the OAuth flow, then one merged write of client_id, client_secret
 * and the new tokens into the chosen store (a Secrets Manager secret, created when missing, or the
 * MCP server's token file). Returns the lines to show the operator; none holds a secret.
 */
import type { CredentialStore } from "../../tools/credentials.ts";
import { SecretsManagerStore } from "../../tools/secrets-manager-store.ts";
import { TokenFileStore } from "../../tools/token-file-store.ts";
import type { AuthorizeOptions, CredentialTarget } from "./authorize-options.ts";
import { runAuthorizationFlow, type Authorization } from "./oauth-authorization.ts";

export function storeFor(target: CredentialTarget): CredentialStore {
  return target.kind === "secrets-manager"
    ? new SecretsManagerStore({ secretName: target.secretName, region: target.region, createIfMissing: true })
    : new TokenFileStore({ path: target.path });
}

export async function runAuthorize(
  options: AuthorizeOptions,
  io: { print(line: string): void; fetch?: typeof fetch },
): Promise<Authorization> {
  const store = storeFor(options.target);
  const authorization = await runAuthorizationFlow({
    ...options,
    fetch: io.fetch,
    onAuthorizeUrl(url) {
      io.print(`Open this URL in a browser signed in to the athlete's Strava account, and approve every box:\n\n  ${url}\n`);
      io.print(`Waiting up to ${options.timeoutMs / 1000} s for Strava to redirect back to 127.0.0.1 ...`);
    },
    async store({ tokens }) {
      await store.save({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        refresh_token: tokens.refresh_token,
        access_token: tokens.access_token,
        expires_at: tokens.expires_at,
      });
    },
  });
  const who = authorization.athlete.name
    ? `${authorization.athlete.name}${authorization.athlete.id !== undefined ? ` (athlete ${authorization.athlete.id})` : ""}`
    : "the athlete";
  io.print(`Authorized ${who} with scopes ${authorization.grantedScopes.join(",")}.`);
  io.print(`Stored client_id, client_secret, refresh_token, access_token and expires_at in the ${store.description}.`);
  io.print(`The access token is valid until ${new Date(authorization.tokens.expires_at * 1000).toISOString()}; the tools refresh it from then on.`);
  return authorization;
}
