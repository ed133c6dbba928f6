/**
 * Parsing request parameters the way the sandbox checks them: stricter than Strava where Strava is
 * lenient (it silently caps or ignores some bad values), so a client that passes here passes there.
 * Each parser returns the value or a Fault reply naming the parameter.
 */
import { badRequest } from "./fault-bodies.ts";
import type { Reply } from "./reply.ts";

export type Parsed<T> = { ok: true; value: T } | { ok: false; reply: Reply };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const invalid = (resource: string, field: string): Parsed<never> => ({ ok: false, reply: badRequest(resource, field, "invalid") });

/** An integer query parameter within [min, max], or the fallback when absent. */
export function integerParam(
  query: URLSearchParams,
  name: string,
  fallback: number | null,
  min: number,
  max: number,
): Parsed<number | null> {
  const raw = query.get(name);
  if (raw === null) return ok(fallback);
  if (!/^-?\d+$/.test(raw.trim())) return invalid("Application", name);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) return invalid("Application", name);
  return ok(value);
}

/** An epoch-seconds filter (`before`, `after`): integer or decimal seconds. */
export function epochParam(query: URLSearchParams, name: string): Parsed<number | null> {
  const raw = query.get(name);
  if (raw === null) return ok(null);
  if (!/^\d+(\.\d+)?$/.test(raw.trim())) return invalid("Application", name);
  return ok(Number(raw));
}

export interface Page {
  page: number;
  perPage: number;
}

/** `page` (default 1, at least 1) and `per_page` (default 30, 1..200). */
export function pageParams(query: URLSearchParams): Parsed<Page> {
  const page = integerParam(query, "page", 1, 1, 1_000_000);
  if (!page.ok) return page;
  const perPage = integerParam(query, "per_page", 30, 1, 200);
  if (!perPage.ok) return perPage;
  return ok({ page: page.value ?? 1, perPage: perPage.value ?? 30 });
}

/** Strava's form booleans: 1/0 or true/false. */
export function flagValue(raw: string | undefined, resource: string, field: string): Parsed<boolean | undefined> {
  if (raw === undefined) return ok(undefined);
  const v = raw.trim().toLowerCase();
  if (v === "1" || v === "true") return ok(true);
  if (v === "0" || v === "false") return ok(false);
  return invalid(resource, field);
}

/** A numeric id from a path segment. */
export function pathId(segment: string | undefined): number | null {
  if (!segment || !/^\d{1,16}$/.test(segment)) return null;
  const id = Number(segment);
  return Number.isSafeInteger(id) ? id : null;
}

export function slicePage<T>(items: readonly T[], page: Page): T[] {
  const start = (page.page - 1) * page.perPage;
  return items.slice(start, start + page.perPage);
}
