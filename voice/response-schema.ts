/**
 * The response object (spec: "Response body") as a TypeBox schema, and the check of the model's answer
 * against it (the core's TypeBox check). The model is asked for exactly this object; what it sends back is
 * parsed here, and anything that does not fit is rejected with a reason (the caller retries once, then
 * answers 502).
 */
import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import { describeValue, schemaViolations, StringEnum, type SchemaViolation } from "../common/schema-check.ts";
import { captureModes, type CaptureMode } from "./capture-request.ts";

const captureActions = ["note", "reminder", "event"] as const;
export type CaptureAction = (typeof captureActions)[number];

const NullableString = Type.Union([Type.String(), Type.Null()]);

function responseObject<Action extends TSchema>(action: Action) {
  return Type.Object({
    markdown: Type.String({ format: "not-blank" }),
    action,
    title: Type.String({ format: "not-blank" }),
    dueISO: NullableString,
    startISO: NullableString,
    endISO: NullableString,
    location: NullableString,
    url: NullableString,
    notes: NullableString,
    tags: Type.Array(Type.String()),
  });
}

/** The 200 response body: every field always present, null where it does not apply. */
const CaptureResponseSchema = responseObject(StringEnum(captureActions));
export type CaptureResponse = Static<typeof CaptureResponseSchema>;

/** Field order of the response, as documented. */
export const responseFields = Object.keys(CaptureResponseSchema.properties) as ReadonlyArray<keyof CaptureResponse>;

export const actionForMode: Record<CaptureMode, CaptureAction> = {
  note: "note",
  reminder: "reminder",
  event: "event",
  research: "note",
  deepthink: "note",
};

/** What the model must answer in each mode: the response object with that mode's action. */
const answerForMode = {} as Record<CaptureMode, TObject>;
for (const mode of captureModes) {
  answerForMode[mode] = responseObject(Type.Literal(actionForMode[mode], { description: `for mode ${mode}` }));
}

/** Fields that only some actions carry; the others get null whatever the model said. */
const actionOnlyFields: Record<"dueISO" | "startISO" | "endISO" | "location" | "url", CaptureAction> = {
  dueISO: "reminder",
  startISO: "event",
  endISO: "event",
  location: "event",
  url: "event",
};

export type ModelAnswerCheck = { ok: true; answer: CaptureResponse } | { ok: false; problem: string };

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
  const violations = schemaViolations(answerForMode[mode], parsed);
  const missing = [...new Set(violations.filter((v) => v.missing && v.path.length === 1).map((v) => v.field))];
  if (missing.length > 0) return { ok: false, problem: `fields missing: ${missing.join(", ")}` };
  const [first] = violations;
  if (first !== undefined) return { ok: false, problem: explain(first) };

  const body = parsed as CaptureResponse;
  const text_ = (value: string | null): string | null => (value !== null && value.trim() !== "" ? value.trim() : null);
  const answer: CaptureResponse = {
    markdown: body.markdown,
    action: actionForMode[mode],
    title: body.title.trim(),
    dueISO: text_(body.dueISO),
    startISO: text_(body.startISO),
    endISO: text_(body.endISO),
    location: text_(body.location),
    url: webAddress(text_(body.url)),
    notes: text_(body.notes),
    tags: [...new Set(body.tags.map((tag) => tag.trim()).filter((tag) => tag !== ""))],
  };
  for (const [field, onlyFor] of Object.entries(actionOnlyFields) as Array<[keyof typeof actionOnlyFields, CaptureAction]>) {
    if (answer.action !== onlyFor) answer[field] = null;
  }
  return { ok: true, answer };
}

// The problem goes into the retry prompt and the log: the model's strings (drawn from the dictated words)
// are never repeated in it.
function explain(problem: SchemaViolation): string {
  const given = typeof problem.value === "string" ? "" : `; got ${describeValue(problem.value)}`;
  return `"${problem.field}" must be ${problem.expected}${given}`;
}

// The Shortcut opens `url` as a link: only http(s) addresses are passed on.
function webAddress(value: string | null): string | null {
  if (value === null) return null;
  const protocol = URL.parse(value)?.protocol;
  return protocol === "https:" || protocol === "http:" ? value : null;
}
