// The response object (spec: "Response body") and the check of the model's answer against it. The model is
// asked for exactly this object; what it sends back is parsed here, and anything that does not fit is
// rejected with a reason (the caller retries once, then answers 502).

import type { CaptureMode } from "./request-body.ts";

export type CaptureAction = "note" | "reminder" | "event";

/** The 200 response body: every field always present, null where it does not apply. */
export interface CaptureResponse {
  markdown: string;
  action: CaptureAction;
  title: string;
  dueISO: string | null;
  startISO: string | null;
  endISO: string | null;
  location: string | null;
  url: string | null;
  notes: string | null;
  tags: string[];
}

/** Field order of the response, as documented. */
export const RESPONSE_FIELDS = [
  "markdown", "action", "title", "dueISO", "startISO", "endISO", "location", "url", "notes", "tags",
] as const satisfies ReadonlyArray<keyof CaptureResponse>;

export const ACTION_FOR_MODE: Record<CaptureMode, CaptureAction> = {
  note: "note",
  reminder: "reminder",
  event: "event",
  research: "note",
  deepthink: "note",
};

/** Fields that only some actions carry; the others get null whatever the model said. */
const ACTION_ONLY_FIELDS: Record<"dueISO" | "startISO" | "endISO" | "location" | "url", CaptureAction> = {
  dueISO: "reminder",
  startISO: "event",
  endISO: "event",
  location: "event",
  url: "event",
};

export type ModelAnswerCheck = { ok: true; answer: CaptureResponse } | { ok: false; problem: string };

const NULLABLE_STRING_FIELDS = ["dueISO", "startISO", "endISO", "location", "url", "notes"] as const;

// Models sometimes wrap JSON in a Markdown fence or add a sentence around it; the object itself is what counts.
function extractJsonObject(text: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const inner = fenced?.[1] ?? text;
  const start = inner.indexOf("{");
  const end = inner.lastIndexOf("}");
  return start >= 0 && end > start ? inner.slice(start, end + 1) : inner;
}

/**
 * Parses the model's text into the response object for `mode`, or says what is wrong with it. Timestamps
 * are checked elsewhere (they are reconciled with the date resolver); here they only need to be strings or null.
 */
export function checkModelAnswer(text: string, mode: CaptureMode): ModelAnswerCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(extractJsonObject(text));
  } catch {
    return { ok: false, problem: "the answer is not a JSON object" };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, problem: "the answer is not a JSON object" };
  }
  const body = parsed as Record<string, unknown>;
  const missing = RESPONSE_FIELDS.filter((field) => !(field in body));
  if (missing.length > 0) return { ok: false, problem: `fields missing: ${missing.join(", ")}` };

  const action = ACTION_FOR_MODE[mode];
  if (body.action !== action) return { ok: false, problem: `"action" must be "${action}" for mode ${mode}` };
  for (const field of ["markdown", "title"] as const) {
    const value = body[field];
    if (typeof value !== "string" || value.trim() === "") return { ok: false, problem: `"${field}" must be a non-empty string` };
  }
  for (const field of NULLABLE_STRING_FIELDS) {
    const value = body[field];
    if (value !== null && typeof value !== "string") return { ok: false, problem: `"${field}" must be a string or null` };
  }
  const tags = body.tags;
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === "string")) {
    return { ok: false, problem: `"tags" must be an array of strings` };
  }

  const text_ = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);
  const answer: CaptureResponse = {
    markdown: String(body.markdown),
    action,
    title: String(body.title).trim(),
    dueISO: text_(body.dueISO),
    startISO: text_(body.startISO),
    endISO: text_(body.endISO),
    location: text_(body.location),
    url: webAddress(text_(body.url)),
    notes: text_(body.notes),
    tags: [...new Set((tags as string[]).map((tag) => tag.trim()).filter((tag) => tag !== ""))],
  };
  for (const [field, onlyFor] of Object.entries(ACTION_ONLY_FIELDS) as Array<[keyof typeof ACTION_ONLY_FIELDS, CaptureAction]>) {
    if (action !== onlyFor) answer[field] = null;
  }
  return { ok: true, answer };
}

// The Shortcut opens `url` as a link: only http(s) addresses are passed on.
function webAddress(value: string | null): string | null {
  if (value === null) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? value : null;
  } catch {
    return null;
  }
}
