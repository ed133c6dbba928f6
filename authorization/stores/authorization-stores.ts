/**
 * What OAuth mode keeps between requests, one small store per concern, each with a backend on local files
 * (state-directory.ts, one machine) and one in DynamoDB with the signing key in Secrets Manager (state-table.ts,
 * the hosted deployment). Any instance may serve any request, so everything a later request needs is here, never
 * in one process's memory:
 *
 * - registrations and what bounds them (registration-store.ts);
 * - used Strava sign-in states, authorization codes and grants (grant-store.ts);
 * - the stored athletes, the owner, and who is no longer admitted (athlete-store.ts), and each athlete's
 *   Strava tokens, a credential store credentials/store-choice.ts makes;
 * - each athlete's count of Strava requests and deauthorization checks (usage-store.ts);
 * - the signing key (signing-key-store.ts).
 *
 * Every read or write touches the records it names, never all of them: the work of a request does not grow
 * with what anonymous callers registered. Deleting an athlete spans the concerns: delete-athlete.ts.
 */
import type { ApplicationCredentials } from "../../credentials/stores/athlete-token-file.ts";
import type { AthleteCredentialStore } from "../../credentials/store-choice.ts";
import type { AthleteStore } from "./athlete-store.ts";
import type { GrantStore } from "./grant-store.ts";
import type { RegistrationStore } from "./registration-store.ts";
import type { SigningKeyStore } from "./signing-key-store.ts";
import type { UsageStore } from "./usage-store.ts";

export interface AuthorizationStores {
  /** Where the state lives, for messages and logs. */
  readonly description: string;
  readonly registrations: RegistrationStore;
  readonly grants: GrantStore;
  readonly athletes: AthleteStore;
  readonly usage: UsageStore;
  readonly signingKey: SigningKeyStore;
  /** The athlete's Strava tokens, where `athletes.credentialsOf` says. */
  athleteCredentials(athleteId: string): AthleteCredentialStore;
  /** Removes expired records (local files; DynamoDB's TTL does it there). */
  sweepExpired(signal: AbortSignal): Promise<void>;
}

/** Where OAuth mode's state lives: a directory, or a DynamoDB table with the signing key in a secret. */
export type AuthorizationStoresDescription =
  { kind: "files"; directory: string } | { kind: "dynamodb"; table: string; signingKeySecret: string; region: string };

export interface OpenAuthorizationStoresOptions {
  /** The deployment's Strava application (kept with each athlete's tokens). */
  application: ApplicationCredentials;
  /** The store deadline (each DynamoDB and Secrets Manager request is cut a second after it). */
  requestTimeoutMs: number;
  /** Clock in epoch milliseconds (records' expiry). */
  now?: (() => number) | undefined;
}

/** The signal of a store call: the store deadline. */
export function storeSignal(timeoutMs: number): AbortSignal {
  return AbortSignal.timeout(timeoutMs);
}
