/**
 * What a sandbox is started with (`startSandbox`'s options) and the checks that refuse a bad one before anything
 * listens, naming the option and what it takes.
 */
import {
  defaultSandboxSeed,
  defaultSandboxTokenLifetimeSeconds,
  defaultSandboxUploadProcessingMs,
} from "../../common/settings/sandbox-variables.ts";
import type { AddressRateLimitSettings } from "../intervals-face/address-rate-limit.ts";
import { stravaDefaultLimits } from "../rate-limits.ts";
import type { LimitPair } from "../rate-limits.ts";

export interface SandboxOptions {
  host?: string;
  /** Default 0 (random); `npm run sandbox` uses 8900 unless PORT is set. */
  port?: number;
  /** Epoch ms; default Date.now (tests move time to expire tokens). */
  clock?: () => number;
  /** Default 21600 (6 h, like Strava). */
  tokenLifetimeSeconds?: number;
  /** Default true: every refresh returns a new refresh token and the old one stops working. */
  rotateRefreshTokens?: boolean;
  /** Default 8000 (Strava's average); tests use ~50. */
  uploadProcessingMs?: number;
  /** [15-min, daily]; default Strava's [200, 2000] overall and [100, 1000] read. */
  rateLimits?: { overall?: [number, number]; read?: [number, number] };
  /** Scopes of the seeded refresh token (and the most the authorize page grants). */
  grantedScopes?: string[];
  /** Seed of the generated data (default 7): same seed and clock, byte-identical answers. */
  seed?: number;
  /**
   * A second athlete (Jonas Berg) with data of his own, who can sign in at the authorize page when
   * `signInAs` (or POST /_sandbox/sign-in) names him: for refusal and isolation tests. Default false.
   */
  secondAthlete?: boolean;
  /** The athlete signed in at the authorize page at first (default the first athlete). */
  signInAs?: number;
  /**
   * Refresh tokens this sandbox accepts from the start, each a grant of its own for its athlete (with the scopes
   * it grants), as if those athletes had signed in at a Strava that went on running: for tests that start a
   * server on state an earlier run left, whose sandbox is gone with its process. Default none.
   */
  keptGrants?: readonly { athleteId: number; refreshToken: string }[];
  /** The intervals.icu face's per-address limit (default intervals.icu's: 10 a second, bursts of 20). */
  intervalsRateLimit?: AddressRateLimitSettings;
  /**
   * Called once a successful token answer has been handed to the kernel, with the client's port (tests
   * time a kill from the moment a rotated token reached the client).
   */
  onTokenAnswer?: (answer: TokenAnswer) => void;
}

export interface TokenAnswer {
  /** The client's TCP port on its side of the connection. */
  clientPort: number;
  /** The refresh token the answer carries. */
  refreshToken: string;
  /** performance.now() when the answer was written. */
  sentAt: number;
}

/** The options every part of the sandbox reads, with their defaults, each checked. */
export interface CheckedOptions {
  clock: () => number;
  seed: number;
  limits: { overall: LimitPair; read: LimitPair };
  tokenLifetimeSeconds: number;
  uploadProcessingMs: number;
}

/** The options' defaults, and an error naming the option for a bad value. */
export function checkedOptions(options: SandboxOptions): CheckedOptions {
  return {
    clock: options.clock ?? Date.now,
    seed: options.seed ?? defaultSandboxSeed,
    limits: {
      overall: checkLimits("rateLimits.overall", options.rateLimits?.overall ?? stravaDefaultLimits.overall),
      read: checkLimits("rateLimits.read", options.rateLimits?.read ?? stravaDefaultLimits.read),
    },
    tokenLifetimeSeconds: checkPositive("tokenLifetimeSeconds", options.tokenLifetimeSeconds ?? defaultSandboxTokenLifetimeSeconds),
    uploadProcessingMs: checkNonNegative("uploadProcessingMs", options.uploadProcessingMs ?? defaultSandboxUploadProcessingMs),
  };
}

function checkLimits(name: string, pair: LimitPair): LimitPair {
  if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((n) => Number.isInteger(n) && n >= 0)) {
    throw new Error(`Sandbox option ${name} must be [fifteenMinuteLimit, dailyLimit], two integers >= 0; got ${JSON.stringify(pair)}.`);
  }
  return pair;
}

function checkPositive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`Sandbox option ${name} must be a number > 0; got ${value}.`);
  return value;
}

function checkNonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`Sandbox option ${name} must be a number >= 0; got ${value}.`);
  return value;
}
