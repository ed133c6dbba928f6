/**
 * One athlete's Strava tokens among several, in a directory of token files (OAuth mode on local files:
 * `<directory>/athletes/<athlete id>.json`, each exactly like `npm run authorize`'s token file, driven by the
 * token manager through TokenFileStore's compare-and-swap). The deployment's Strava application is put over
 * whatever a file holds, so a rotated client secret takes effect for every athlete at the next start.
 */
import { join } from "node:path";
import type {
  AuthorizationStore,
  CredentialSnapshot,
  CredentialStore,
  SaveOutcome,
  StoredCredentials,
  TokenSet,
} from "../credential-store.ts";
import { TokenFileStore } from "./token-file-store.ts";

/** The deployment's Strava application. */
export interface ApplicationCredentials {
  client_id: string;
  client_secret: string;
}

const athleteIdPattern = /^\d{1,20}$/;

/** Where the athlete's token file is in the directory (a Strava athlete id, never a path a request made up). */
export function athleteTokenFilePath(directory: string, athleteId: string): string {
  if (!athleteIdPattern.test(athleteId)) throw new TypeError(`not a Strava athlete id: ${athleteId}`);
  return join(directory, "athletes", `${athleteId}.json`);
}

/** The athlete's token file with the application's credentials put over what it holds. */
export class AthleteTokenFile implements CredentialStore, Pick<AuthorizationStore, "writeAuthorization"> {
  readonly description: string;
  readonly #inner: TokenFileStore;
  readonly #application: ApplicationCredentials;

  constructor(options: { directory: string; athleteId: string; application: ApplicationCredentials }) {
    this.#inner = new TokenFileStore({ path: athleteTokenFilePath(options.directory, options.athleteId) });
    this.#application = options.application;
    this.description = this.#inner.description;
  }

  async load(signal: AbortSignal): Promise<CredentialSnapshot> {
    const snapshot = await this.#inner.load(signal);
    return { credentials: { ...snapshot.credentials, ...this.#application }, version: snapshot.version };
  }

  saveTokens(expected: CredentialSnapshot, tokens: TokenSet, signal: AbortSignal): Promise<SaveOutcome> {
    return this.#inner.saveTokens(expected, tokens, signal).then((outcome) =>
      outcome.saved
        ? {
            saved: true,
            snapshot: { credentials: { ...outcome.snapshot.credentials, ...this.#application }, version: outcome.snapshot.version },
          }
        : {
            saved: false,
            current: { credentials: { ...outcome.current.credentials, ...this.#application }, version: outcome.current.version },
          },
    );
  }

  writeAuthorization(credentials: Required<StoredCredentials>, signal: AbortSignal): Promise<void> {
    return this.#inner.writeAuthorization({ ...credentials, ...this.#application }, signal);
  }
}
