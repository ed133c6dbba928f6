/**
 * Event lengths spoken in the text ("for 45 minutes", "a 30-minute call", "for an hour and a half").
 * chrono-node reads "for 45 minutes" as a second date (45 minutes from now), so durations are found here,
 * first, and blanked out of the text before chrono sees it.
 */

/** A duration found in the text, and the text with every duration phrase blanked out. */
export interface DurationReading {
  /** Length of the first duration phrase, in milliseconds; null when the text names none. */
  durationMs: number | null;
  /** The input with duration phrases replaced by spaces, safe to hand to the date parser. */
  textWithoutDurations: string;
}

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;

const numberWords: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  "forty-five": 45,
  "forty five": 45,
  fifty: 50,
  sixty: 60,
  ninety: 90,
};

const amountPattern = String.raw`(\d+(?:\.\d+)?|forty[- ]five|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety)`;
const hoursPattern = String.raw`(?:hours?|hrs?)`;
const minutesPattern = String.raw`(?:minutes?|mins?)`;
const leadPattern = String.raw`\b(?:for|lasting|lasts|that lasts|which lasts)\s+(?:about\s+|around\s+|roughly\s+|approximately\s+)?`;

function numberValue(word: string): number {
  const lower = word.toLowerCase();
  return numberWords[lower] ?? Number(lower);
}

interface DurationPattern {
  pattern: RegExp;
  toMs(match: RegExpExecArray): number;
}

// Longest forms first: "an hour and a half" must win over "an hour".
const durationPatterns: DurationPattern[] = [
  {
    pattern: new RegExp(`${leadPattern}${amountPattern} and a half ${hoursPattern}\\b`, "gi"),
    toMs: (m) => (numberValue(m[1] ?? "") + 0.5) * hourMs,
  },
  {
    pattern: new RegExp(`${leadPattern}${amountPattern} ${hoursPattern} and a half\\b`, "gi"),
    toMs: (m) => (numberValue(m[1] ?? "") + 0.5) * hourMs,
  },
  {
    pattern: new RegExp(`${leadPattern}${amountPattern} ${hoursPattern},?(?: and)? ${amountPattern} ${minutesPattern}\\b`, "gi"),
    toMs: (m) => numberValue(m[1] ?? "") * hourMs + numberValue(m[2] ?? "") * minuteMs,
  },
  {
    pattern: new RegExp(`${leadPattern}(?:half an hour|a half[- ]hour|half[- ]hour)\\b`, "gi"),
    toMs: () => 30 * minuteMs,
  },
  {
    pattern: new RegExp(`${leadPattern}a couple (?:of )?${hoursPattern}\\b`, "gi"),
    toMs: () => 2 * hourMs,
  },
  {
    pattern: new RegExp(`${leadPattern}${amountPattern} ${hoursPattern}\\b`, "gi"),
    toMs: (m) => numberValue(m[1] ?? "") * hourMs,
  },
  {
    pattern: new RegExp(`${leadPattern}${amountPattern} ${minutesPattern}\\b`, "gi"),
    toMs: (m) => numberValue(m[1] ?? "") * minuteMs,
  },
  // Adjectives: "a 30-minute call", "a two-hour workshop", "an hour-long meeting", "a half-hour chat".
  {
    pattern: new RegExp(`\\b${amountPattern}-(hour|minute)(?:-long)?\\b`, "gi"),
    toMs: (m) => numberValue(m[1] ?? "") * (m[2]?.toLowerCase() === "hour" ? hourMs : minuteMs),
  },
  {
    pattern: /\b(?:half-hour|hour-long)\b/gi,
    toMs: (m) => (m[0].toLowerCase() === "half-hour" ? 30 : 60) * minuteMs,
  },
];

/** Finds the event length the text names and blanks every duration phrase out of it. */
export function readDuration(text: string): DurationReading {
  let remaining = text;
  let first: { index: number; ms: number } | null = null;
  for (const { pattern, toMs } of durationPatterns) {
    pattern.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(remaining)) !== null) {
      const ms = toMs(match);
      if (Number.isFinite(ms) && ms > 0 && (first === null || match.index < first.index)) {
        first = { index: match.index, ms };
      }
      // Blank rather than delete, so later patterns and the date parser see the rest of the text unchanged.
      remaining = remaining.slice(0, match.index) + " ".repeat(match[0].length) + remaining.slice(match.index + match[0].length);
    }
  }
  return { durationMs: first ? Math.round(first.ms) : null, textWithoutDurations: remaining };
}
