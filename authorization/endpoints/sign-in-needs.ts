/**
 * What the three steps of a sign-in share (authorization-endpoint.ts, consent-decision.ts, strava-callback.ts):
 * what they work with, the checked authorization request as it travels signed in the consent form and in
 * Strava's state, and how a client is named on pages and in log lines.
 */
import type { Logger } from "../../common/logger.ts";
import type { AthleteCredentialStore } from "../../credentials/store-choice.ts";
import type { ServerAddresses } from "../addresses.ts";
import type { Admission } from "../admission.ts";
import type { ClientDirectory, KnownClient } from "../clients/clients.ts";
import { cleanDisplayText } from "../pages/display-text.ts";
import type { AthleteStore } from "../stores/athlete-store.ts";
import type { GrantStore } from "../stores/grant-store.ts";
import type { RegistrationStore } from "../stores/registration-store.ts";
import type { StravaApplication } from "../strava/strava-sign-in.ts";
import type { SignedMessages } from "../tokens/signed-messages.ts";
import type { SourceCounts } from "./source-counts.ts";

/** What the three steps of a sign-in work with. */
export interface SignInNeeds {
  addresses: ServerAddresses;
  clients: ClientDirectory;
  registrations: Pick<RegistrationStore, "startSignIn">;
  grants: Pick<GrantStore, "spendSignInState" | "putCode">;
  /** The athlete's Strava tokens (credentials/store-choice.ts makes the store). */
  athleteCredentials: (athleteId: string) => AthleteCredentialStore;
  athletes: Pick<AthleteStore, "recordStored">;
  admission: Pick<Admission, "admits" | "describe">;
  /** Signs the checked request into the consent form and Strava's state. */
  messages: SignedMessages;
  strava: StravaApplication;
  /** This process's count of each source's Strava sign-in callbacks (each may cost a token request at Strava). */
  signInCallbacks: SourceCounts;
  logger: Logger;
  now: () => number;
  storeTimeoutMs: number;
}

/** The checked authorization request, as signed into the consent form and Strava's state. */
export interface PendingAuthorization {
  client_id: string;
  client_name: string;
  redirect_uri: string;
  state?: string;
  code_challenge: string;
  scopes: string[];
  resource: string;
  /** Name of this sign-in's cookie, and the value it must hold. */
  cookie: string;
  csrf: string;
  /** In Strava's state only: its id, spent at the callback. */
  state_id?: string;
  /** The signed message's expiry (epoch s). */
  exp?: number;
}

/** Strava sign-in callbacks one source may make per quarter hour (a person signs in a few times a day). */
export const callbacksPerSource = { limit: 10, windowMs: 15 * 60_000 };

/** A client's name for pages and logs: its own (cleaned of characters that hide or reorder text), or its host, never empty. */
export function displayName(client: KnownClient): string {
  const name = cleanDisplayText(client.name ?? "", 100);
  if (name) return name;
  if (client.kind === "document") return new URL(client.clientId).host;
  return "An app that did not give its name";
}

/** What goes in a log line about a client: a document's host, or a registered client's id. */
export function clientHint(clientId: string | null | undefined): string | undefined {
  if (!clientId) return undefined;
  const url = URL.parse(clientId);
  return (url?.host ?? clientId).slice(0, 120);
}
