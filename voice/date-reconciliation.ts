/**
 * Which timestamps the response carries: the date resolver's where the text gave something it could read,
 * the model's (checked) only where it could not. Disagreements are reported so the caller can log them.
 */
import { toIsoUtc } from "../common/time-zone.ts";
import { defaultEventDurationMs, type DateResolution } from "./date-resolution.ts";
import type { CaptureResponse } from "./response-schema.ts";

type DateField = "dueISO" | "startISO" | "endISO";

export interface DateDisagreement {
  field: DateField;
  resolver: string;
  model: string;
}

export interface RejectedModelDate {
  field: DateField;
  reason: string;
}

export interface ReconciledDates {
  dates: Pick<CaptureResponse, DateField>;
  /** The resolver and the model named different instants; the resolver's is used. */
  disagreements: DateDisagreement[];
  /** Model timestamps that failed the check and were dropped. */
  rejected: RejectedModelDate[];
}

const isoWithZone = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** How far from "now" a model timestamp may lie before it is taken for a mistake. */
export const modelDateWindow = { pastMs: 24 * 3_600_000, futureMs: 5 * 366 * 24 * 3_600_000 } as const;

type ModelDateCheck = { ok: true; ms: number } | { ok: false; reason: string } | null;

/** Checks one model timestamp: ISO 8601 with a zone, a real instant, near enough to now. null when absent. */
export function checkModelDate(value: string | null, referenceMs: number): ModelDateCheck {
  if (value === null) return null;
  if (!isoWithZone.test(value)) return { ok: false, reason: "not an ISO 8601 timestamp with a zone" };
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return { ok: false, reason: "not a real date" };
  if (ms < referenceMs - modelDateWindow.pastMs) return { ok: false, reason: "more than a day in the past" };
  if (ms > referenceMs + modelDateWindow.futureMs) return { ok: false, reason: "more than five years ahead" };
  return { ok: true, ms };
}

/** Combines the resolver's reading with the model's timestamps for the action the mode returns. */
export function reconcileDates(
  action: CaptureResponse["action"],
  resolved: DateResolution,
  model: Pick<CaptureResponse, DateField>,
  referenceMs: number,
): ReconciledDates {
  const disagreements: DateDisagreement[] = [];
  const rejected: RejectedModelDate[] = [];
  const modelMs = (field: DateField): number | null => {
    const check = checkModelDate(model[field], referenceMs);
    if (check === null) return null;
    if (!check.ok) {
      rejected.push({ field, reason: check.reason });
      return null;
    }
    return check.ms;
  };
  // The resolver's value stands; a model value naming another instant is recorded.
  const pick = (field: DateField, resolverMs: number | null, fromModel: number | null): number | null => {
    if (resolverMs === null) return fromModel;
    if (fromModel !== null && fromModel !== resolverMs) {
      disagreements.push({ field, resolver: toIsoUtc(resolverMs), model: toIsoUtc(fromModel) });
    }
    return resolverMs;
  };
  const iso = (ms: number | null): string | null => (ms === null ? null : toIsoUtc(ms));
  const text = resolved.text;

  if (action === "reminder") {
    return {
      dates: { dueISO: iso(pick("dueISO", text.startMs, modelMs("dueISO"))), startISO: null, endISO: null },
      disagreements,
      rejected,
    };
  }
  if (action !== "event") return { dates: { dueISO: null, startISO: null, endISO: null }, disagreements, rejected };

  const startMs = pick("startISO", text.startMs, modelMs("startISO"));
  const modelEnd = modelMs("endISO");
  if (startMs === null) return { dates: { dueISO: null, startISO: null, endISO: null }, disagreements, rejected };
  let endMs: number;
  if (text.endMs !== null || text.durationMs !== null || text.startMs !== null) {
    // The text decides the end: its range, its spoken length, or (given a start) the default hour.
    const resolverEnd = text.endMs ?? startMs + (text.durationMs ?? defaultEventDurationMs);
    endMs = pick("endISO", resolverEnd, modelEnd) ?? resolverEnd;
  } else if (modelEnd !== null && modelEnd > startMs) {
    endMs = modelEnd;
  } else {
    if (modelEnd !== null) rejected.push({ field: "endISO", reason: "not after the start" });
    endMs = startMs + defaultEventDurationMs;
  }
  return { dates: { dueISO: null, startISO: iso(startMs), endISO: iso(endMs) }, disagreements, rejected };
}
