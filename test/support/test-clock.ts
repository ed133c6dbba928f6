/**
 * The suite's one clock. A test that needs "now" takes it from here, never from a date of its own:
 *
 * - `testNow`: the instant tests pin their clocks to, 2026-11-21 22:37:12 UTC (15:37 on a Saturday in the
 *   sandbox athlete's Boulder). Code under test reads it through its `now` option (the sandbox, the token
 *   manager, the OAuth store, the voice service all take one): pass `manualClock().now`, never `Date.now`
 *   beside a pinned date.
 * - `testDayAt("12:41:48")`: that UTC time on `testNow`'s day, for a test about windows and days.
 * - `manualClock(start)`: a clock the test moves by hand (`advance`, `set`).
 * - `clockEnv()`: what a child process needs to read the same clock as the test (the variables of Debian's
 *   `faketime`, when the suite runs under it). `baseEnv` of test/mcp-adapter/mcp-child.ts adds it; children
 *   started with the test's own environment inherit the variables anyway.
 * - `stampFile(path, ms)`: sets a file's times from a clock, for a test that ages a file against a clock
 *   (the kernel stamps writes with the real time, which is not the test's clock under `faketime`).
 *
 * The suite passes on any day and under `faketime '+365 days' npm test` (docs: testing).
 */
import { utimesSync } from "node:fs";

/** 2026-11-21 22:37:12 UTC: the fixed "now" for tests that pin their clock. */
export const testNow = Date.UTC(2026, 10, 21, 22, 37, 12);

/** `testNow`'s day at a UTC wall time ("12:41:48"), for a test about where in a window or a day it runs. */
export function testDayAt(utcTime: string): number {
  const match = /^(\d{2}):(\d{2}):(\d{2})$/.exec(utcTime);
  if (!match) throw new TypeError(`testDayAt wants HH:MM:SS, got ${utcTime}`);
  const day = new Date(testNow);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), Number(match[1]), Number(match[2]), Number(match[3]));
}

export interface ManualClock {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
}

/** A clock a test moves by hand, starting at `startMs` (the suite's `testNow` unless said). */
export function manualClock(startMs: number = testNow): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

/** The variables through which a moved clock (Debian's faketime) reaches child processes. */
export function clockEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (name === "LD_PRELOAD" || name.startsWith("FAKETIME") || name === "DONT_FAKE_MONOTONIC"))
      passed[name] = value;
  }
  return passed;
}

/** Stamps a file's access and modification times with `ms` on the test's clock. */
export function stampFile(path: string, ms: number): void {
  const at = new Date(ms);
  utimesSync(path, at, at);
}
