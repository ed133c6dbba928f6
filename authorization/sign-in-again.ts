/**
 * When Strava refuses an athlete's stored refresh token (they revoked this application at Strava, the sandbox
 * started over, the token was spent elsewhere), no call for that athlete can succeed until they sign in with
 * Strava again; and in OAuth mode the operator cannot run anything for them: the athlete's own client must.
 * So the server ends the athlete's grants here at once (the token manager awaits it before the call fails):
 *
 * - their access tokens are refused at the next request, with the 401 challenge: the resource server already
 *   reads the token's grant on every request (resource-server.ts), so ending the grant costs no extra check;
 * - their refresh tokens get `invalid_grant`, so the client runs a full sign-in instead of refreshing in a loop;
 * - their Strava tokens stay stored: the new sign-in overwrites them (the webhook or the operator's `forget`
 *   deletes them).
 *
 * What the call that met the refusal says (`athleteCredentials`), and what /health says (`signInAgainHealth`),
 * name only what the athlete can do: sign in again from their MCP client.
 */
import type { Logger } from "../common/logger.ts";
import type { CredentialSnapshot, CredentialStore, SaveOutcome, TokenSet } from "../credentials/credential-store.ts";
import { revokeGrantsOf } from "./grant-endings.ts";
import type { GrantStore } from "./stores/grant-store.ts";

/** What to do, for the messages of an athlete's token manager in OAuth mode. */
export function signInAgainAdvice(athleteId: string): string {
  return (
    `athlete ${athleteId} must sign in with Strava again from their MCP client: this server has ended their sign-in here, ` +
    "so the client asks for a new one at its next request (or connect it to this server again)"
  );
}

/** The athlete's Strava credentials as OAuth mode's token manager uses them: the store's, with OAuth mode's advice. */
export function athleteCredentials(store: CredentialStore, athleteId: string): CredentialStore {
  return new AthleteCredentials(store, signInAgainAdvice(athleteId));
}

class AthleteCredentials implements CredentialStore {
  readonly description: string;
  readonly authorizeAgain: string;
  readonly #inner: CredentialStore;

  constructor(inner: CredentialStore, authorizeAgain: string) {
    this.#inner = inner;
    this.description = inner.description;
    this.authorizeAgain = authorizeAgain;
  }

  load(signal: AbortSignal): Promise<CredentialSnapshot> {
    return this.#inner.load(signal);
  }

  saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome> {
    return this.#inner.saveTokens(expected, tokens, signal);
  }

  keptCopyOf(tokens: TokenSet): string | undefined {
    return this.#inner.keptCopyOf?.(tokens);
  }
}

/** Ends the athlete's grants here after Strava refused their refresh token, and says so in the log. */
export async function endGrantsAfterRefusal(
  athleteId: string,
  context: { grants: Pick<GrantStore, "grantsOf" | "deleteGrant">; storeTimeoutMs: number; logger: Logger },
): Promise<void> {
  const ended = await revokeGrantsOf(athleteId, context);
  context.logger.warn("athlete_must_sign_in_again", {
    athlete: athleteId,
    grants_ended: ended,
    message:
      `Strava refused athlete ${athleteId}'s stored refresh token (revoked at Strava, or no longer known there): ` +
      `their ${ended === 1 ? "grant here was" : `${ended} grants here were`} ended, so their MCP client asks them to sign in again at its next request. ` +
      "Nothing is needed of the operator.",
  });
}

/**
 * The part of /health about athletes who must sign in again, or undefined when there are none. /health needs no
 * token, so the athletes' ids are shown only when the server listens on loopback alone; elsewhere, a count.
 */
export function signInAgainHealth(athletes: readonly string[], listensOnLoopbackOnly: boolean): Record<string, unknown> | undefined {
  if (athletes.length === 0) return undefined;
  const who = athletes.length === 1 ? "1 athlete" : `${athletes.length} athletes`;
  return {
    count: athletes.length,
    ...(listensOnLoopbackOnly ? { athletes: [...athletes] } : {}),
    message:
      `${who} must sign in with Strava again (Strava refused the stored refresh token${athletes.length === 1 ? "" : "s"}): ` +
      "their sign-in here was ended, and their MCP client asks them at its next request. Nothing is needed of the operator.",
  };
}
