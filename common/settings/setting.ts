/**
 * One environment variable, declared once: its name, what kind of value it takes, its default, one line of
 * what it means, who reads it, and how its value is read and checked. Front ends read settings with
 * `readSetting(env, setting)`, passing `process.env`; the core never reads the environment (lint forbids it),
 * it receives what the front end read. The inventory of every declaration (inventory.ts) generates the
 * settings table of docs/operators/settings.md and the MCP server's usage text.
 */
import { ConfigurationError } from "../configuration-error.ts";

/** An environment: `process.env` in a front end, a plain object in tests. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Who reads a variable. `library`: a library we use reads it (the AWS SDK), never our code. */
export type Reader = "MCP server" | "plugin" | "voice" | "sandbox" | "authorize" | "setup:coach" | "oauth-admin" | "hosted" | "library";

export interface Setting<T> {
  readonly name: string;
  /** The kind of value, as the docs show it: "URL", "milliseconds", "path", "true/false", ... */
  readonly type: string;
  /** The default as the docs show it ("none" when unset turns something off). */
  readonly defaultText: string;
  /** One line: what it is for. */
  readonly meaning: string;
  readonly readBy: readonly Reader[];
  /** Holds a secret: never logged, never shown. */
  readonly secret?: boolean;
  /** The value from the trimmed text (undefined when unset or blank); throws a ConfigurationError naming the variable. */
  readonly parse: (text: string | undefined) => T;
}

export function defineSetting<T>(setting: Setting<T>): Setting<T> {
  return setting;
}

/** The setting's value in `env`. */
export function readSetting<T>(env: Environment, setting: Setting<T>): T {
  const text = env[setting.name]?.trim();
  return setting.parse(text === "" ? undefined : text);
}

/** Whether the variable is set to something other than blanks. */
export function isSet(env: Environment, setting: Setting<unknown>): boolean {
  return (env[setting.name]?.trim() ?? "") !== "";
}

/** Text, or `fallback` when unset. */
export function text(fallback: string): (value: string | undefined) => string;
export function text(fallback?: undefined): (value: string | undefined) => string | undefined;
export function text(fallback?: string): (value: string | undefined) => string | undefined {
  return (value) => value ?? fallback;
}

/** An absolute http(s) URL, or `fallback` when unset. */
export function httpUrl(name: string, example: string, fallback: string): (value: string | undefined) => string;
export function httpUrl(name: string, example: string, fallback?: undefined): (value: string | undefined) => string | undefined;
export function httpUrl(name: string, example: string, fallback?: string): (value: string | undefined) => string | undefined {
  return (value) => {
    if (value === undefined) return fallback;
    const url = URL.parse(value);
    if (url === null) throw new ConfigurationError(`${name} must be an absolute http(s) URL such as ${example}; got "${value}".`);
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw new ConfigurationError(`${name} must use http or https; got "${url.protocol}".`);
    return value;
  };
}

/** A whole number from `min` to `max`, or `fallback` when unset. */
export function wholeNumber(name: string, min: number, max: number, fallback: number): (value: string | undefined) => number;
export function wholeNumber(
  name: string,
  min: number,
  max: number,
  fallback?: undefined,
): (value: string | undefined) => number | undefined;
export function wholeNumber(name: string, min: number, max: number, fallback?: number): (value: string | undefined) => number | undefined {
  return (value) => {
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new ConfigurationError(`${name} must be a whole number from ${min} to ${max}; got "${value}".`);
    return Number(value);
  };
}

/** Milliseconds between 100 and 600000 (ten minutes), or `fallback` when unset. */
export function milliseconds(name: string, fallback: number): (value: string | undefined) => number {
  return (value) => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 100 || parsed > 600_000) {
      throw new ConfigurationError(`${name} must be a whole number of milliseconds between 100 and 600000; got "${value}".`);
    }
    return parsed;
  };
}

/** true or false, or `fallback` when unset. */
export function trueOrFalse(name: string, fallback: boolean): (value: string | undefined) => boolean;
export function trueOrFalse(name: string, fallback?: undefined): (value: string | undefined) => boolean | undefined;
export function trueOrFalse(name: string, fallback?: boolean): (value: string | undefined) => boolean | undefined {
  return (value) => {
    if (value === undefined) return fallback;
    if (value !== "true" && value !== "false") throw new ConfigurationError(`${name} must be true or false; got "${value}".`);
    return value === "true";
  };
}

/** Four whole numbers "overall15min,overallDaily,read15min,readDaily" (Strava's rate-limit windows). */
export function rateLimits(
  name: string,
  atLeastOne: boolean,
): (value: string | undefined) => { overall: [number, number]; read: [number, number] } | undefined {
  return (value) => {
    if (value === undefined) return undefined;
    const parts = value.split(",").map((part) => part.trim());
    if (parts.length !== 4 || !parts.every((part) => /^\d+$/.test(part) && (!atLeastOne || Number(part) > 0))) {
      throw new ConfigurationError(
        `${name} must be four whole numbers "overall15min,overallDaily,read15min,readDaily", such as 200,2000,100,1000; got "${value}".`,
      );
    }
    const [o15, oDay, r15, rDay] = parts.map(Number) as [number, number, number, number];
    return { overall: [o15, oDay], read: [r15, rDay] };
  };
}
