/**
 * Phrasings chrono-node misreads, rewritten into equivalents it reads correctly, and anchors it cannot read
 * at all. Each rule was found by running the phrase suite and the bench's stretch set
 * (bench/voice-date-accuracy.ts); each says what chrono does wrong without it.
 */
import { wallClockAt } from "../common/time-zone.ts";

const monthNames = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

// Holidays and "first Monday of ..." anchor a date chrono does not know; reading only the rest of the
// sentence ("New Year's Eve at 8pm" -> today at 8pm) would be wrong, so the resolver abstains.
const unreadableAnchors = [
  /\b(?:on|by|until|till|before|after|for|this|next|over|at)\s+(?:the\s+)?(?:christmas|xmas|new year'?s?|easter|thanksgiving|halloween|hanukkah|diwali|eid|valentine'?s)\b/i,
  /\b(?:christmas|xmas|new year'?s?|halloween|valentine'?s)\s+(?:eve|day)\b/i,
  /\b(?:first|second|third|fourth|last)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend)\b/i,
];

/** True when the text anchors a date on something chrono cannot read (a holiday, "first Monday of"). */
export function namesUnreadableDate(text: string): boolean {
  return unreadableAnchors.some((pattern) => pattern.test(text));
}

const timePattern = String.raw`\d{1,2}(?::\d{2})?\s*(?:[ap]\.?\s?m\.?)?`;

const clockWords: Record<string, number> = {
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
};
const minuteWords: Record<string, string> = {
  "o'clock": "00",
  oclock: "00",
  fifteen: "15",
  thirty: "30",
  "forty-five": "45",
  "forty five": "45",
};
const clockWord = `(${Object.keys(clockWords).join("|")})`;
const halfHoursWord = String.raw`(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;

/** The text with misread phrasings replaced; `referenceMs` and `timeZone` anchor "the 15th". */
export function rewriteForParser(text: string, referenceMs: number, timeZone: string): string {
  let out = text;
  // "at seven thirty", "at three": chrono reads clock times only as digits.
  out = out.replace(
    new RegExp(`\\bat\\s+${clockWord}(?:[\\s-]+(o'?clock|fifteen|thirty|forty[\\s-]five))?\\b`, "gi"),
    (_m, hour: string, minutes?: string) => {
      const mm = minutes ? (minuteWords[minutes.toLowerCase().replace(/\s/, "-")] ?? "00") : "00";
      return `at ${clockWords[hour.toLowerCase()]}:${mm}`;
    },
  );
  // "at 0930": chrono does not read four-digit times.
  out = out.replace(/\bat\s+([01]\d|2[0-3])([0-5]\d)\b/gi, "at $1:$2");
  // "in two and a half hours", "in an hour and a half": chrono drops the half.
  out = out.replace(new RegExp(`\\b${halfHoursWord}\\s+and\\s+a\\s+half\\s+hours?\\b`, "gi"), (_m, n: string) => {
    const hours = /^an?$/i.test(n) ? 1 : (clockWords[n.toLowerCase()] ?? Number(n));
    return `${hours * 60 + 30} minutes`;
  });
  out = out.replace(/\ban?\s+hour\s+and\s+a\s+half\b/gi, "90 minutes");
  // "a fortnight": not in chrono's vocabulary.
  out = out.replace(/\ba\s+fortnight\b/gi, "2 weeks");
  // "between 2 and 3pm": chrono keeps only "3pm".
  out = out.replace(new RegExp(`\\bbetween\\s+(${timePattern})\\s+and\\s+(${timePattern})`, "gi"), "from $1 to $2");
  // "the day after tomorrow": chrono computes it in UTC, not in the zone it was given.
  out = out.replace(/\b(?:the\s+)?day after tomorrow\b/gi, "in 2 days");
  // "end of day": chrono reads "the day" as tomorrow. The working day ends at 5pm.
  out = out.replace(/\b(?:by\s+|at\s+)?(?:the\s+)?end of (?:the\s+)?(?:work(?:ing)?\s+)?day\b|\bEOD\b/gi, " at 5pm");
  // "half past 3", "quarter past 3", "quarter to 4": chrono keeps only the hour.
  out = out.replace(/\bhalf past (\d{1,2})\b/gi, (_m, h: string) => `${h}:30`);
  out = out.replace(/\b(?:a\s+)?quarter past (\d{1,2})\b/gi, (_m, h: string) => `${h}:15`);
  out = out.replace(/\b(?:a\s+)?quarter to (\d{1,2})\b/gi, (_m, h: string) => `${((Number(h) + 10) % 12) + 1}:45`);
  // "7 in the evening", "8 at night", "6 in the morning": chrono reads the hour and the day part separately.
  out = out.replace(/\b(\d{1,2}(?::\d{2})?)\s*(?:o'?clock\s*)?in the morning\b/gi, "$1am");
  out = out.replace(/\b(\d{1,2}(?::\d{2})?)\s*(?:o'?clock\s*)?(?:in the (?:afternoon|evening)|at night)\b/gi, "$1pm");
  // "March the 5th": chrono reads only "March".
  out = out.replace(new RegExp(`\\b(${monthNames.join("|")})\\s+the\\s+(\\d{1,2})(st|nd|rd|th)\\b`, "gi"), "$1 $2$3");
  // "on the 15th": chrono has no day-of-month-only form. It means the next 15th, this month or a later one.
  out = out.replace(/\b(?:on\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\b)/gi, (match, day: string) => {
    const date = nextDayOfMonth(Number(day), referenceMs, timeZone);
    return date ? ` on ${monthNames[date.month - 1]} ${date.day}, ${date.year}` : match;
  });
  return out;
}

/** The next date (today included) whose day of month is `day`, skipping months too short to have it. */
function nextDayOfMonth(day: number, referenceMs: number, timeZone: string): { year: number; month: number; day: number } | null {
  if (day < 1 || day > 31) return null;
  const today = wallClockAt(referenceMs, timeZone);
  for (let ahead = 0; ahead < 13; ahead += 1) {
    const monthIndex = today.month - 1 + ahead;
    const year = today.year + Math.floor(monthIndex / 12);
    const month = (monthIndex % 12) + 1;
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (day > daysInMonth || (ahead === 0 && day < today.day)) continue;
    return { year, month, day };
  }
  return null;
}
