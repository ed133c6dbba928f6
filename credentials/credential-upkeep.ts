/**
 * What a front end asks of the credentials behind the tools, whichever training log they are for: their
 * state for a health check, and, at shutdown, to finish what is under way. Strava's token manager
 * (credentials/token-manager.ts) has real work here (a refresh and its save must not be cut off); an API key
 * that never changes, such as intervals.icu's, has none (credentials/api-key-health.ts). Front ends call only
 * this, so none of them knows which log it serves.
 */
import type { CredentialHealth } from "./token-manager.ts";

export type { CredentialHealth };

export interface CredentialUpkeep {
  /** The credentials' state (for `/health` and the plugin's log). */
  health(): Promise<CredentialHealth>;
  /**
   * Shutdown: waits for work on the credentials under way (a token refresh and its save), within a bound.
   * `lost`: the process stops holding credentials its store does not have.
   */
  settle(): Promise<{ lost: boolean }>;
  /** Undoes `settle()` (a host that stops and starts the plugin's service again). */
  resume(): void;
}
