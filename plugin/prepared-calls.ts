/**
 * The write calls the approval hook has validated and built, kept for the tool's `execute`, so a held
 * write is validated and built once (an upload's file is decoded once) instead of in the hook and again in
 * the call.
 *
 * How "the same call" is recognised, from the host's contract (openclaw 2026.9.6): `before_tool_call`
 * gets the call's `toolCallId` and a structured clone of its params made for this hook alone; after the
 * approval the host calls `execute(toolCallId, params)` with another clone (merged with any params a hook
 * returned). Object identity never survives, so a kept call is used only for the same `toolCallId`, the
 * same tool and params deep-equal to those the hook saw. Anything else finds nothing and the call is
 * validated as it always was: no toolCallId, params another plugin's hook changed, a direct invoke
 * without the hook, an approval decided in another process, an entry expired or pushed out. So this can
 * save work, never change what is sent.
 *
 * Bounded so it cannot grow: an entry is taken once, lives as long as an approval can wait plus a margin,
 * and at most `maxEntries` are kept (the oldest dropped first); an upload's request holds its decoded
 * file, so the bound is small. Calls denied or never run leave by expiry.
 */
import { isDeepStrictEqual } from "node:util";
import type { PreparedCall } from "../tools/runner/prepared-call.ts";

export interface PreparedCallsOptions {
  /** How long a kept call may wait for its execute, in milliseconds. */
  ttlMs: number;
  /** At most this many kept at once (default 16). */
  maxEntries?: number;
  /** Milliseconds of a monotonic clock (default `performance.now`; tests move their own). */
  now?: () => number;
}

interface KeptCall {
  toolName: string;
  params: unknown;
  prepared: PreparedCall;
  expiresAt: number;
}

export class PreparedCalls {
  readonly #kept = new Map<string, KeptCall>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: PreparedCallsOptions) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries ?? 16;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Keeps the call the hook prepared from `params` (the hook's own copy: the host gives each hook one). */
  keep(toolCallId: string, toolName: string, params: unknown, prepared: PreparedCall): void {
    const now = this.#now();
    for (const [id, kept] of this.#kept) if (kept.expiresAt <= now) this.#kept.delete(id);
    this.#kept.delete(toolCallId);
    while (this.#kept.size >= this.#maxEntries) this.#kept.delete(this.#kept.keys().next().value as string);
    this.#kept.set(toolCallId, { toolName, params, prepared, expiresAt: now + this.#ttlMs });
  }

  /** The call kept for exactly this one (same id, tool and params, not expired), removed; otherwise undefined. */
  take(toolCallId: string, toolName: string, params: unknown): PreparedCall | undefined {
    const kept = this.#kept.get(toolCallId);
    if (kept === undefined) return undefined;
    this.#kept.delete(toolCallId);
    const same = kept.toolName === toolName && kept.expiresAt > this.#now() && isDeepStrictEqual(kept.params, params);
    return same ? kept.prepared : undefined;
  }

  /** How many calls are kept (for tests and the bound). */
  get size(): number {
    return this.#kept.size;
  }
}
