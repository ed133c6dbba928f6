/**
 * The capture request: its schema, the reading of the raw body against it (the core's TypeBox check, with
 * messages that name the field, the rule and the value given) and the token budgets that follow from it.
 * Bounds and defaults are documented in docs/operators/voice.md.
 */
import { Type, type Static } from "@sinclair/typebox";
import { describeValue, schemaViolations, StringEnum, type SchemaViolation } from "../common/schema-check.ts";
import { RequestBodyError } from "./errors.ts";

export const captureModes = ["note", "reminder", "event", "research", "deepthink"] as const;
export type CaptureMode = (typeof captureModes)[number];

/** Dictation on a watch is short; 4,000 characters (~700 words) leaves room for a long research question. */
export const textMaxChars = 4_000;

/** Below 256 tokens even a reminder's JSON gets cut off; 32,000 is the output ceiling of the Claude models Bedrock serves for this. */
export const maxTokensBounds = { min: 256, max: 32_000 } as const;

/** Bedrock requires a thinking budget of at least 1,024 tokens; 0 turns thinking off. */
export const thinkingTokensBounds = { min: 1_024, max: 24_000 } as const;

/** Output budget per mode when the request gives no maxTokens. */
export const defaultMaxTokens: Record<CaptureMode, number> = {
  note: 1_024,
  reminder: 512,
  event: 512,
  research: 4_096,
  deepthink: 8_192,
};

/** Thinking budget for deepthink when the request gives neither thinkingTokens nor maxTokens. */
export const defaultThinkingTokens = 4_096;

/** A validated request, with the budgets to send to the model. */
export interface CaptureRequest {
  text: string;
  mode: CaptureMode;
  /** Output token budget sent as `inferenceConfig.maxTokens` (includes thinking when thinking is on). */
  maxTokens: number;
  /** Extended-thinking budget; 0 means thinking is off. Only deepthink ever has one. */
  thinkingBudget: number;
  /** The request's own IANA zone, when it named one. */
  timeZone: string | null;
}

/** The body's fields (spec: "Request body"). Other fields are ignored, and a null field counts as absent. */
const CaptureRequestBody = Type.Object({
  text: Type.String({ format: "not-blank", maxLength: textMaxChars, description: "the dictated words" }),
  mode: StringEnum(captureModes),
  maxTokens: Type.Optional(Type.Integer({ minimum: maxTokensBounds.min, maximum: maxTokensBounds.max })),
  thinkingTokens: Type.Optional(
    Type.Union([
      Type.Literal(0, { description: "off" }),
      Type.Integer({ minimum: thinkingTokensBounds.min, maximum: thinkingTokensBounds.max }),
    ]),
  ),
  timezone: Type.Optional(Type.String({ format: "iana-time-zone" })),
});

const example = `Send JSON such as {"text":"Remind me to call Sam tomorrow at 9am","mode":"reminder"}.`;

/** Reads the raw HTTP body (possibly base64, as API Gateway may send it) into a validated request. */
export function parseCaptureRequest(body: string | null | undefined, isBase64Encoded = false): CaptureRequest {
  if (body === null || body === undefined || body.trim() === "") {
    throw new RequestBodyError(null, `The request body is empty. ${example}`);
  }
  const raw = isBase64Encoded ? Buffer.from(body, "base64").toString("utf8") : body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new RequestBodyError(null, `The request body is not valid JSON. ${example}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new RequestBodyError(null, `The request body must be a JSON object. ${example}`);
  }
  const fields = Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== null));
  const [problem] = schemaViolations(CaptureRequestBody, fields, 1);
  if (problem !== undefined) throw new RequestBodyError(problem.field, explain(problem));
  const { text, mode, maxTokens, thinkingTokens, timezone } = fields as Static<typeof CaptureRequestBody>;
  return { text, mode, ...tokenBudgets(mode, maxTokens, thinkingTokens), timeZone: timezone ?? null };
}

function explain(problem: SchemaViolation): string {
  if (problem.missing) return `"${problem.field}" is required: ${problem.expected}. ${example}`;
  // The dictated words are personal: error messages (which are logged) give their length, never the words.
  const given =
    problem.field === "text" && typeof problem.value === "string" ? `${problem.value.length} characters` : describeValue(problem.value);
  return `"${problem.field}" must be ${problem.expected}; got ${given}.`;
}

/**
 * The budgets sent to the model. Thinking is used by deepthink only (other modes ignore thinkingTokens).
 * Bedrock wants the thinking budget below maxTokens, since maxTokens counts thinking and answer together.
 */
function tokenBudgets(
  mode: CaptureMode,
  maxTokens: number | undefined,
  thinkingTokens: number | undefined,
): { maxTokens: number; thinkingBudget: number } {
  if (mode !== "deepthink") return { maxTokens: maxTokens ?? defaultMaxTokens[mode], thinkingBudget: 0 };
  if (thinkingTokens === 0) return { maxTokens: maxTokens ?? defaultMaxTokens.deepthink, thinkingBudget: 0 };
  if (thinkingTokens === undefined) {
    if (maxTokens === undefined) return { maxTokens: defaultMaxTokens.deepthink, thinkingBudget: defaultThinkingTokens };
    // Half of the caller's budget for thinking, half for the answer; too small a budget means no thinking.
    const half = Math.floor(maxTokens / 2);
    return { maxTokens, thinkingBudget: half >= thinkingTokensBounds.min ? half : 0 };
  }
  if (maxTokens === undefined) {
    // Leave the answer as much room as the default deepthink budget gives it.
    const answerRoom = defaultMaxTokens.deepthink - defaultThinkingTokens;
    return { maxTokens: Math.min(thinkingTokens + answerRoom, maxTokensBounds.max), thinkingBudget: thinkingTokens };
  }
  if (thinkingTokens >= maxTokens) {
    throw new RequestBodyError(
      "thinkingTokens",
      `"thinkingTokens" (${thinkingTokens}) must be less than "maxTokens" (${maxTokens}): maxTokens counts thinking and answer together.`,
    );
  }
  return { maxTokens, thinkingBudget: thinkingTokens };
}
