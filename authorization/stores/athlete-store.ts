/**
 * Who is stored and who is admitted: the athletes whose Strava tokens are kept here, the owner (the first
 * athlete to sign in, when no list of athletes is configured), claimed once, which stored athletes are no longer
 * admitted and since when, and whose grants all ended as a precaution (a code or refresh token presented again),
 * and when (either way their Strava tokens wait out a grace period before they are revoked and deleted:
 * admission.ts). Two backends: file-athlete-store.ts and dynamodb-athlete-store.ts.
 *
 * The tokens themselves are a credential store per athlete, which credentials/store-choice.ts makes from the
 * description `credentialsOf` gives: the token manager drives it with the same compare-and-swap design as for one
 * athlete.
 */
import type { AthleteCredentialsDescription } from "../../credentials/store-choice.ts";

/** An athlete whose Strava tokens are stored here. */
export interface StoredAthlete {
  athleteId: string;
  /** Epoch ms since which the athlete is no longer admitted (their tokens wait out the grace period). */
  unadmittedSinceMs: number | undefined;
  /** Epoch ms when the athlete's last grant was ended as a precaution (their tokens wait out the grace period). */
  grantsEndedAtMs: number | undefined;
}

export interface AthleteStore {
  /** Where the athletes live, for messages and logs. */
  readonly description: string;
  /** Where the athlete's Strava tokens are kept. */
  credentialsOf(athleteId: string): AthleteCredentialsDescription;
  /** A sign-in stored the athlete's Strava tokens: they are among the stored athletes from now on. */
  recordStored(athleteId: string, signal: AbortSignal): Promise<void>;
  /** Whether the store holds Strava tokens for the athlete. */
  hasAthlete(athleteId: string, signal: AbortSignal): Promise<boolean>;
  /** The athletes whose Strava tokens are stored, with when each stopped being admitted (if they did). */
  storedAthletes(signal: AbortSignal): Promise<StoredAthlete[]>;

  /** The owner, claiming it for `athleteId` when nobody has claimed it yet. */
  claimOwner(athleteId: string, signal: AbortSignal): Promise<string>;
  /** The owner, or undefined while nobody has claimed it. */
  owner(signal: AbortSignal): Promise<string | undefined>;
  /** Forgets the owner (the operator's command): the next athlete to sign in claims it. */
  resetOwner(signal: AbortSignal): Promise<void>;

  /** Records that the athlete is no longer admitted, unless already recorded; returns the recorded time. */
  markUnadmitted(athleteId: string, sinceMs: number, signal: AbortSignal): Promise<number>;
  /** The athlete is admitted again. */
  clearUnadmitted(athleteId: string, signal: AbortSignal): Promise<void>;
  /** Records that the athlete's last grant was ended as a precaution at `atMs` (a later record replaces an earlier one). */
  markGrantsEnded(athleteId: string, atMs: number, signal: AbortSignal): Promise<void>;
  /** The athlete signed in again after their grants ended as a precaution. */
  clearGrantsEnded(athleteId: string, signal: AbortSignal): Promise<void>;

  /** Deletes the athlete's Strava tokens and marks, and takes them off the stored athletes (delete-athlete.ts). */
  forgetAthlete(athleteId: string, signal: AbortSignal): Promise<void>;
}
