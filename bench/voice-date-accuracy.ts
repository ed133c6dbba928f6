// Accuracy of the voice date resolver: the phrase suite the tests hold it to (test/voice/date-phrases.ts)
// and a stretch set of phrasings it makes no promise about. Each phrase counts as correct, abstained (the
// resolver read nothing, so the model's checked timestamp is used) or wrong (a different instant: the case
// that matters, since the resolver's reading overrides the model's).
//
// Run: npx tsx bench/voice-date-accuracy.ts

import { performance } from "node:perf_hooks";
import { DATE_PHRASES, type DatePhraseCase } from "../test/voice/date-phrases.ts";
import { resolveDates } from "../voice/date-resolution.ts";

const UTC_YEAR_END = "2026-12-30T15:00:00Z"; // Wed Dec 30 15:00 UTC
const LA_SPRING = "2026-03-07T18:00:00Z"; // Sat Mar 7 10:00 PST; DST starts Sun Mar 8
const none = { dueISO: null, startISO: null, endISO: null };
const due = (dueISO: string) => ({ dueISO, startISO: null, endISO: null });
const span = (startISO: string, endISO: string) => ({ dueISO: null, startISO, endISO });

/** Phrasings beyond the suite; expected values are what a person would mean. */
const STRETCH: DatePhraseCase[] = [
  {
    phrase: "a week from Friday at 10am",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-08T10:00:00Z"),
    why: "anchored offset",
  },
  {
    phrase: "this weekend clean the garage",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-02T09:00:00Z"),
    why: "weekend",
  },
  {
    phrase: "in a fortnight",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-13T15:00:00Z"),
    why: "fortnight",
  },
  {
    phrase: "New Year's Eve at 8pm",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-31T20:00:00Z"),
    why: "holiday name",
  },
  {
    phrase: "tomorrow at three",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-31T15:00:00Z"),
    why: "hour as a word",
  },
  {
    phrase: "at seven thirty tonight",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-30T19:30:00Z"),
    why: "time in words",
  },
  {
    phrase: "the first Monday of next month",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-04T09:00:00Z"),
    why: "ordinal weekday",
  },
  {
    phrase: "in two and a half hours",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-30T17:30:00Z"),
    why: "fractional hours in words",
  },
  {
    phrase: "Monday the 4th at 9",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-04T09:00:00Z"),
    why: "weekday and ordinal",
  },
  {
    phrase: "at 0930 tomorrow",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-31T09:30:00Z"),
    why: "military time",
  },
  {
    phrase: "tomorrow at 9 in the morning",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-31T09:00:00Z"),
    why: "in the morning",
  },
  {
    phrase: "2 weeks from tomorrow",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-14T09:00:00Z"),
    why: "anchored weeks",
  },
  {
    phrase: "Jan 5 from 1 to 2:30",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: span("2027-01-05T13:00:00Z", "2027-01-05T14:30:00Z"),
    why: "range without am/pm",
  },
  {
    phrase: "midday Friday",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-01T12:00:00Z"),
    why: "midday",
  },
  { phrase: "in 45 mins", mode: "reminder", reference: UTC_YEAR_END, timeZone: "UTC", expected: due("2026-12-30T15:45:00Z"), why: "mins" },
  {
    phrase: "on the 31st at 6pm",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-31T18:00:00Z"),
    why: "ordinal this month",
  },
  {
    phrase: "by noon",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-31T12:00:00Z"),
    why: "next noon",
  },
  {
    phrase: "dinner with Ana at 7",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: span("2026-12-30T19:00:00Z", "2026-12-30T20:00:00Z"),
    why: "dinner implies evening",
  },
  {
    phrase: "Lunch on Friday 12 to 1",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: span("2027-01-01T12:00:00Z", "2027-01-01T13:00:00Z"),
    why: "noon range",
  },
  {
    phrase: "the day after New Year's Day at 10am",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-02T10:00:00Z"),
    why: "relative to a holiday",
  },
  {
    phrase: "next Thursday or Friday at 3",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: none,
    why: "alternatives: should abstain",
  },
  { phrase: "remind me about the thing", mode: "reminder", reference: UTC_YEAR_END, timeZone: "UTC", expected: none, why: "no date" },
  {
    phrase: "Sunday at 2am",
    mode: "event",
    reference: LA_SPRING,
    timeZone: "America/Los_Angeles",
    expected: span("2026-03-08T10:00:00Z", "2026-03-08T11:00:00Z"),
    why: "start of the DST gap",
  },
  {
    phrase: "this Sunday at noon",
    mode: "reminder",
    reference: LA_SPRING,
    timeZone: "America/Los_Angeles",
    expected: due("2026-03-08T19:00:00Z"),
    why: "this Sunday, PDT",
  },
];

const BERLIN_FALL = "2026-10-24T10:00:00Z"; // Sat Oct 24 12:00 CEST; clocks go back Sun Oct 25 03:00
const LA_FALL = "2026-10-31T17:00:00Z"; // Sat Oct 31 10:00 PDT; clocks go back Sun Nov 1 02:00
const KOLKATA_MORNING = "2026-06-10T03:30:00Z"; // Wed Jun 10 09:00 IST

/**
 * Held out: written after the resolver's rewrites were settled and run once as they stand, so this figure
 * says how it does on phrasing it was not tuned on. Do not tune against it; add new held-out phrases instead.
 * First run: 23 correct, 0 abstained, 1 wrong ("movie night Saturday at 9": chrono dropped the weekday). That
 * exposed a chrono bug; the lost-weekday guard added since makes the phrase abstain (23 / 1 / 0).
 */
const HELD_OUT: DatePhraseCase[] = [
  {
    phrase: "pick up the dry cleaning tomorrow at 5:30 pm",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-31T17:30:00Z"),
    why: "",
  },
  {
    phrase: "call the plumber Monday morning",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-04T09:00:00Z"),
    why: "",
  },
  {
    phrase: "team retro on Thursday from 3 to 4:30",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: span("2026-12-31T15:00:00Z", "2026-12-31T16:30:00Z"),
    why: "",
  },
  {
    phrase: "dentist appointment January 12 at 2:15pm",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: span("2027-01-12T14:15:00Z", "2027-01-12T15:15:00Z"),
    why: "",
  },
  {
    phrase: "remind me in 20 minutes to check the oven",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-30T15:20:00Z"),
    why: "",
  },
  {
    phrase: "breakfast with Tom at 8 on Saturday",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: span("2027-01-02T08:00:00Z", "2027-01-02T09:00:00Z"),
    why: "",
  },
  {
    phrase: "pay the credit card bill on the 5th",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-05T09:00:00Z"),
    why: "",
  },
  {
    phrase: "yoga class tomorrow evening for an hour",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: span("2026-12-31T19:00:00Z", "2026-12-31T20:00:00Z"),
    why: "",
  },
  {
    phrase: "submit expenses by Friday 5pm",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-01T17:00:00Z"),
    why: "",
  },
  {
    phrase: "movie night Saturday at 9",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: span("2027-01-02T21:00:00Z", "2027-01-02T22:00:00Z"),
    why: "",
  },
  {
    phrase: "call grandma at 11 tomorrow",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-31T11:00:00Z"),
    why: "",
  },
  {
    phrase: "flight at 6:45 am on January 3rd",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-03T06:45:00Z"),
    why: "",
  },
  {
    phrase: "remind me next Wednesday to renew the lease",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-06T09:00:00Z"),
    why: "",
  },
  {
    phrase: "the meeting is at noon on Monday for 30 minutes",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: span("2027-01-04T12:00:00Z", "2027-01-04T12:30:00Z"),
    why: "",
  },
  {
    phrase: "call the bank at 10:30",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2026-12-31T10:30:00Z"),
    why: "",
  },
  { phrase: "in 3 hours", mode: "reminder", reference: UTC_YEAR_END, timeZone: "UTC", expected: due("2026-12-30T18:00:00Z"), why: "" },
  {
    phrase: "Sunday at 1pm lunch with parents",
    mode: "event",
    reference: BERLIN_FALL,
    timeZone: "Europe/Berlin",
    expected: span("2026-10-25T12:00:00Z", "2026-10-25T13:00:00Z"),
    why: "",
  },
  {
    phrase: "tomorrow at 3:30 am check the clocks",
    mode: "reminder",
    reference: BERLIN_FALL,
    timeZone: "Europe/Berlin",
    expected: due("2026-10-25T02:30:00Z"),
    why: "",
  },
  {
    phrase: "next weekend hike",
    mode: "reminder",
    reference: BERLIN_FALL,
    timeZone: "Europe/Berlin",
    expected: due("2026-10-31T08:00:00Z"),
    why: "",
  },
  {
    phrase: "in 5 days",
    mode: "reminder",
    reference: BERLIN_FALL,
    timeZone: "Europe/Berlin",
    expected: due("2026-10-29T11:00:00Z"),
    why: "",
  },
  {
    phrase: "Monday at 7:30 am standup",
    mode: "reminder",
    reference: LA_FALL,
    timeZone: "America/Los_Angeles",
    expected: due("2026-11-02T15:30:00Z"),
    why: "",
  },
  {
    phrase: "tonight at 11 pm",
    mode: "reminder",
    reference: LA_FALL,
    timeZone: "America/Los_Angeles",
    expected: due("2026-11-01T06:00:00Z"),
    why: "",
  },
  {
    phrase: "Remind me to send the report Tuesday",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: "UTC",
    expected: due("2027-01-05T09:00:00Z"),
    why: "",
  },
  {
    phrase: "lunch with Priya at 1 tomorrow",
    mode: "event",
    reference: KOLKATA_MORNING,
    timeZone: "Asia/Kolkata",
    expected: span("2026-06-11T07:30:00Z", "2026-06-11T08:30:00Z"),
    why: "",
  },
];

type Outcome = "correct" | "abstained" | "wrong";

function outcome(c: DatePhraseCase): { outcome: Outcome; got: string } {
  const r = resolveDates({ text: c.phrase, mode: c.mode, reference: new Date(c.reference), timeZone: c.timeZone });
  const got = { dueISO: r.dueISO, startISO: r.startISO, endISO: r.endISO };
  const gotText = JSON.stringify(got);
  if (gotText === JSON.stringify(c.expected)) return { outcome: "correct", got: gotText };
  if (got.dueISO === null && got.startISO === null) return { outcome: "abstained", got: gotText };
  return { outcome: "wrong", got: gotText };
}

function report(label: string, cases: DatePhraseCase[]): void {
  const counts: Record<Outcome, number> = { correct: 0, abstained: 0, wrong: 0 };
  const misses: string[] = [];
  for (const c of cases) {
    const result = outcome(c);
    counts[result.outcome] += 1;
    if (result.outcome !== "correct")
      misses.push(`  ${result.outcome.padEnd(9)} "${c.phrase}" (${c.timeZone}): got ${result.got}, want ${JSON.stringify(c.expected)}`);
  }
  const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);
  console.log(
    `${label}: ${cases.length} phrases: ${counts.correct} correct, ${counts.abstained} abstained, ${counts.wrong} wrong; ` +
      `accuracy ${pct(counts.correct, cases.length)}, precision when it answers ${pct(counts.correct, counts.correct + counts.wrong)}`,
  );
  for (const miss of misses) console.log(miss);
}

function speed(cases: DatePhraseCase[]): void {
  const rounds = 20;
  for (const c of cases) resolveDates({ text: c.phrase, mode: c.mode, reference: new Date(c.reference), timeZone: c.timeZone });
  const started = performance.now();
  for (let i = 0; i < rounds; i += 1) {
    for (const c of cases) resolveDates({ text: c.phrase, mode: c.mode, reference: new Date(c.reference), timeZone: c.timeZone });
  }
  const perPhrase = (performance.now() - started) / (rounds * cases.length);
  console.log(`speed: ${perPhrase.toFixed(3)} ms per phrase (warm, ${rounds * cases.length} resolutions)`);
}

console.log(`Node ${process.version}, process TZ ${Intl.DateTimeFormat().resolvedOptions().timeZone}`);
report("suite (the tests' promise)", DATE_PHRASES);
report("stretch (no promise; its misses shaped the rewrites)", STRETCH);
report("held out (never tuned on)", HELD_OUT);
speed(DATE_PHRASES);
