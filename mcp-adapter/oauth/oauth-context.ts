/**
 * What every endpoint of the authorization server shares: its identity (issuer and the one resource it
 * issues tokens for), the store, the client directory, the signers, the Strava application, who is
 * admitted, and the clock. Built once per process (oauth-app.ts).
 */
import type { Logger } from "../../common/logger.ts";
import type { AccessTokens } from "./access-tokens.ts";
import type { ClientDirectory } from "./clients.ts";
import type { OAuthStore } from "./oauth-store.ts";
import type { SignedMessages } from "./signed-messages.ts";
import type { StravaApplication } from "./strava-sign-in.ts";

export interface OAuthContext {
  /** PUBLIC_URL's origin: the issuer, and where every endpoint lives. */
  issuer: string;
  /** `${issuer}/mcp`: the only resource tokens are issued for. */
  resource: string;
  store: OAuthStore;
  clients: ClientDirectory;
  accessTokens: AccessTokens;
  messages: SignedMessages;
  strava: StravaApplication;
  admission: Admission;
  /** Called once everything stored for an athlete is gone (the process drops what it holds for them). */
  onAthleteDeleted(athleteId: string): void;
  logger: Logger;
  now: () => number;
  /** Deadline of each store call. */
  storeTimeoutMs: number;
}

export const paths = {
  authorize: "/authorize",
  token: "/token",
  register: "/register",
  revoke: "/revoke",
  stravaCallback: "/oauth/strava/callback",
  stravaWebhook: "/strava/webhook",
} as const;

/** Who may sign in: the configured athletes, or else the owner (the first athlete to sign in, claimed once). */
export class Admission {
  readonly #listed: readonly string[] | undefined;
  readonly #store: OAuthStore;

  constructor(listed: readonly string[] | undefined, store: OAuthStore) {
    this.#listed = listed;
    this.#store = store;
  }

  /** How many athletes share the application (for the fair share). */
  get size(): number {
    return this.#listed?.length ?? 1;
  }

  get describe(): string {
    return this.#listed ? `athletes ${this.#listed.join(", ")}` : "its owner (the first athlete to sign in)";
  }

  /**
   * Whether the server serves its owner alone and nobody has signed in yet: whoever signs in first becomes
   * the owner (start-oauth-mode.ts says so at start).
   */
  async awaitsOwner(signal: AbortSignal): Promise<boolean> {
    return this.#listed === undefined && (await this.#store.owner(signal)) === undefined;
  }

  async admits(athleteId: string, signal: AbortSignal): Promise<boolean> {
    if (this.#listed) return this.#listed.includes(athleteId);
    return (await this.#store.claimOwner(athleteId, signal)) === athleteId;
  }
}

/** The signal of a store call: the store deadline. */
export function storeSignal(context: OAuthContext): AbortSignal {
  return AbortSignal.timeout(context.storeTimeoutMs);
}
