// The date-resolution phrase suite: dictated phrases with fixed reference instants, in several zones and on
// both sides of both DST changes, with the timestamps a person would expect. Shared by
// date-resolution.test.ts and bench/voice-date-accuracy.ts.
//
// Expected values were worked out by hand from the zone rules (2026: US DST Mar 8 / Nov 1, EU Mar 29 /
// Oct 25, Sydney ends Apr 5 / starts Oct 4), not produced by the code under test.

import type { CaptureMode } from "../../voice/capture-request.ts";

export interface DatePhraseCase {
  phrase: string;
  mode: CaptureMode;
  /** The "now" of the capture, UTC. */
  reference: string;
  timeZone: string;
  expected: { dueISO: string | null; startISO: string | null; endISO: string | null };
  /** Why this case is in the suite. */
  why: string;
}

const none = { dueISO: null, startISO: null, endISO: null };
const due = (dueISO: string) => ({ dueISO, startISO: null, endISO: null });
const span = (startISO: string, endISO: string) => ({ dueISO: null, startISO, endISO });

// Reference instants (all Saturdays before a DST change, unless noted).
const LA_SPRING = "2026-03-07T18:00:00Z"; // Sat Mar 7 10:00 PST; clocks go forward Sun Mar 8 02:00
const LA_FALL = "2026-10-31T17:00:00Z"; // Sat Oct 31 10:00 PDT; clocks go back Sun Nov 1 02:00
const BERLIN_SPRING = "2026-03-28T11:00:00Z"; // Sat Mar 28 12:00 CET; forward Sun Mar 29 02:00
const BERLIN_FALL = "2026-10-24T10:00:00Z"; // Sat Oct 24 12:00 CEST; back Sun Oct 25 03:00
const SYDNEY_END = "2026-04-04T01:00:00Z"; // Sat Apr 4 12:00 AEDT; back Sun Apr 5 03:00
const SYDNEY_START = "2026-10-03T02:00:00Z"; // Sat Oct 3 12:00 AEST; forward Sun Oct 4 02:00
const KOLKATA_MORNING = "2026-06-10T03:30:00Z"; // Wed Jun 10 09:00 IST (+05:30, no DST)
const KOLKATA_NIGHT = "2026-06-10T20:00:00Z"; // Thu Jun 11 01:30 IST, still Jun 10 in UTC
const UTC_YEAR_END = "2026-12-30T15:00:00Z"; // Wed Dec 30 15:00 UTC

const LA = "America/Los_Angeles";
const BERLIN = "Europe/Berlin";
const SYDNEY = "Australia/Sydney";
const KOLKATA = "Asia/Kolkata";
const UTC = "UTC";

export const DATE_PHRASES: DatePhraseCase[] = [
  // --- Los Angeles, spring forward ---
  {
    phrase: "Remind me tomorrow at 9 AM to call mom",
    mode: "reminder",
    reference: LA_SPRING,
    timeZone: LA,
    expected: due("2026-03-08T16:00:00Z"),
    why: "tomorrow is PDT (-7) though now is PST (-8)",
  },
  {
    phrase: "Remind me to water the plants tomorrow",
    mode: "reminder",
    reference: LA_SPRING,
    timeZone: LA,
    expected: due("2026-03-08T16:00:00Z"),
    why: "date without time: 09:00 local",
  },
  {
    phrase: "Brunch with Dana tomorrow from 11 to 12:30",
    mode: "event",
    reference: LA_SPRING,
    timeZone: LA,
    expected: span("2026-03-08T18:00:00Z", "2026-03-08T19:30:00Z"),
    why: "range without am/pm after the change",
  },
  {
    phrase: "Team sync Monday at 10am for 45 minutes",
    mode: "event",
    reference: LA_SPRING,
    timeZone: LA,
    expected: span("2026-03-09T17:00:00Z", "2026-03-09T17:45:00Z"),
    why: "spoken duration",
  },
  {
    phrase: "Sunday at 2:30am check the server",
    mode: "reminder",
    reference: LA_SPRING,
    timeZone: LA,
    expected: due("2026-03-08T10:30:00Z"),
    why: "02:30 does not exist that night: moves forward to 03:30 PDT",
  },
  {
    phrase: "in 2 hours take the laundry out",
    mode: "reminder",
    reference: LA_SPRING,
    timeZone: LA,
    expected: due("2026-03-07T20:00:00Z"),
    why: "exact offset from now",
  },
  {
    phrase: "in 3 days renew the parking permit",
    mode: "reminder",
    reference: LA_SPRING,
    timeZone: LA,
    expected: due("2026-03-10T17:00:00Z"),
    why: "days ahead keep the wall-clock time across the change",
  },
  {
    phrase: "Dinner at Luigi's Saturday at 7 pm",
    mode: "event",
    reference: LA_SPRING,
    timeZone: LA,
    expected: span("2026-03-08T03:00:00Z", "2026-03-08T04:00:00Z"),
    why: "today's weekday, evening still ahead; default one hour",
  },
  {
    phrase: "next Monday at 8:15 am submit the timesheet",
    mode: "reminder",
    reference: LA_SPRING,
    timeZone: LA,
    expected: due("2026-03-09T15:15:00Z"),
    why: "next Monday said on Saturday is the coming Monday",
  },
  {
    phrase: "Call with the bank tonight at 8 for half an hour",
    mode: "event",
    reference: LA_SPRING,
    timeZone: LA,
    expected: span("2026-03-08T04:00:00Z", "2026-03-08T04:30:00Z"),
    why: "tonight, still PST; half an hour",
  },
  {
    phrase: "tonight take out the trash",
    mode: "reminder",
    reference: LA_SPRING,
    timeZone: LA,
    expected: due("2026-03-08T04:00:00Z"),
    why: "tonight means 20:00",
  },
  {
    phrase: "Note: idea for the team offsite tomorrow at 9am",
    mode: "note",
    reference: LA_SPRING,
    timeZone: LA,
    expected: none,
    why: "notes carry no dates",
  },

  // --- Los Angeles, fall back ---
  {
    phrase: "tomorrow at 9am go for a run",
    mode: "reminder",
    reference: LA_FALL,
    timeZone: LA,
    expected: due("2026-11-01T17:00:00Z"),
    why: "tomorrow is PST (-8) though now is PDT (-7)",
  },
  {
    phrase: "Sunday 1:30 am backup window for 1 hour",
    mode: "event",
    reference: LA_FALL,
    timeZone: LA,
    expected: span("2026-11-01T08:30:00Z", "2026-11-01T09:30:00Z"),
    why: "01:30 happens twice: the first (PDT) one",
  },
  {
    phrase: "in 24 hours check the oven timer",
    mode: "reminder",
    reference: LA_FALL,
    timeZone: LA,
    expected: due("2026-11-01T17:00:00Z"),
    why: "24 elapsed hours, which is 09:00 on the wall clock after the change",
  },
  {
    phrase: "in 1 day pay rent",
    mode: "reminder",
    reference: LA_FALL,
    timeZone: LA,
    expected: due("2026-11-01T18:00:00Z"),
    why: "one calendar day keeps 10:00 on the wall clock",
  },
  {
    phrase: "Halloween party tonight from 8 to 11",
    mode: "event",
    reference: LA_FALL,
    timeZone: LA,
    expected: span("2026-11-01T03:00:00Z", "2026-11-01T06:00:00Z"),
    why: "tonight's range in the evening",
  },
  {
    phrase: "Monday 9 to 5 conference",
    mode: "event",
    reference: LA_FALL,
    timeZone: LA,
    expected: span("2026-11-02T17:00:00Z", "2026-11-03T01:00:00Z"),
    why: "9 to 5 is a working day",
  },
  {
    phrase: "next week renew passport",
    mode: "reminder",
    reference: LA_FALL,
    timeZone: LA,
    expected: due("2026-11-07T18:00:00Z"),
    why: "a week ahead, same wall-clock time, now in PST",
  },

  // --- Berlin, spring forward ---
  {
    phrase: "tomorrow at 10 call grandma",
    mode: "reminder",
    reference: BERLIN_SPRING,
    timeZone: BERLIN,
    expected: due("2026-03-29T08:00:00Z"),
    why: "tomorrow is CEST (+2)",
  },
  {
    phrase: "Sunday brunch 11:00 to 13:00",
    mode: "event",
    reference: BERLIN_SPRING,
    timeZone: BERLIN,
    expected: span("2026-03-29T09:00:00Z", "2026-03-29T11:00:00Z"),
    why: "24-hour range after the change",
  },
  {
    phrase: "Meeting on Monday at 14:30 for 90 minutes",
    mode: "event",
    reference: BERLIN_SPRING,
    timeZone: BERLIN,
    expected: span("2026-03-30T12:30:00Z", "2026-03-30T14:00:00Z"),
    why: "minutes duration",
  },
  {
    phrase: "tomorrow at 2:30 am check the heating",
    mode: "reminder",
    reference: BERLIN_SPRING,
    timeZone: BERLIN,
    expected: due("2026-03-29T01:30:00Z"),
    why: "02:30 is skipped: 03:30 CEST",
  },
  {
    phrase: "the day after tomorrow at noon buy flowers",
    mode: "reminder",
    reference: BERLIN_SPRING,
    timeZone: BERLIN,
    expected: due("2026-03-30T10:00:00Z"),
    why: "day after tomorrow",
  },
  {
    phrase: "Dentist on the 2nd at 3",
    mode: "event",
    reference: BERLIN_SPRING,
    timeZone: BERLIN,
    expected: span("2026-04-02T13:00:00Z", "2026-04-02T14:00:00Z"),
    why: "the next 2nd is in April; 3 means 15:00",
  },
  {
    phrase: "What happened when the Berlin Wall fell, and what should I read tomorrow?",
    mode: "research",
    reference: BERLIN_SPRING,
    timeZone: BERLIN,
    expected: none,
    why: "research carries no dates",
  },

  // --- Berlin, fall back ---
  {
    phrase: "tomorrow morning call the plumber",
    mode: "reminder",
    reference: BERLIN_FALL,
    timeZone: BERLIN,
    expected: due("2026-10-25T08:00:00Z"),
    why: "morning is 09:00, now CET (+1)",
  },
  {
    phrase: "Sunday at 2:30 am watch the clocks change for 30 minutes",
    mode: "event",
    reference: BERLIN_FALL,
    timeZone: BERLIN,
    expected: span("2026-10-25T00:30:00Z", "2026-10-25T01:00:00Z"),
    why: "02:30 happens twice: the first (CEST)",
  },
  {
    phrase: "Monday at 6 pm gym",
    mode: "reminder",
    reference: BERLIN_FALL,
    timeZone: BERLIN,
    expected: due("2026-10-26T17:00:00Z"),
    why: "Monday in CET",
  },
  {
    phrase: "Workshop next Tuesday from 9 to 12",
    mode: "event",
    reference: BERLIN_FALL,
    timeZone: BERLIN,
    expected: span("2026-10-27T08:00:00Z", "2026-10-27T11:00:00Z"),
    why: "next Tuesday from Saturday",
  },
  {
    phrase: "in 30 minutes turn off the oven",
    mode: "reminder",
    reference: BERLIN_FALL,
    timeZone: BERLIN,
    expected: due("2026-10-24T10:30:00Z"),
    why: "minutes from now",
  },
  {
    phrase: "Think about whether I should move the meeting to next Friday at 3pm",
    mode: "deepthink",
    reference: BERLIN_FALL,
    timeZone: BERLIN,
    expected: none,
    why: "deepthink carries no dates",
  },

  // --- Sydney, DST ends ---
  {
    phrase: "tomorrow at 9am put the bins out",
    mode: "reminder",
    reference: SYDNEY_END,
    timeZone: SYDNEY,
    expected: due("2026-04-04T23:00:00Z"),
    why: "tomorrow is AEST (+10), and still the 4th in UTC",
  },
  {
    phrase: "Sunday 2:30 am flight check for 20 minutes",
    mode: "event",
    reference: SYDNEY_END,
    timeZone: SYDNEY,
    expected: span("2026-04-04T15:30:00Z", "2026-04-04T15:50:00Z"),
    why: "02:30 happens twice: the first (AEDT)",
  },
  {
    phrase: "Monday afternoon call the accountant",
    mode: "reminder",
    reference: SYDNEY_END,
    timeZone: SYDNEY,
    expected: due("2026-04-06T05:00:00Z"),
    why: "afternoon is 15:00",
  },
  {
    phrase: "Lunch tomorrow at 12:30 at Bondi Icebergs",
    mode: "event",
    reference: SYDNEY_END,
    timeZone: SYDNEY,
    expected: span("2026-04-05T02:30:00Z", "2026-04-05T03:30:00Z"),
    why: "lunch after the change",
  },
  {
    phrase: "at 5pm pick up the kids",
    mode: "reminder",
    reference: SYDNEY_END,
    timeZone: SYDNEY,
    expected: due("2026-04-04T06:00:00Z"),
    why: "time only: today, still AEDT",
  },
  {
    phrase: "in a week book the vet",
    mode: "reminder",
    reference: SYDNEY_END,
    timeZone: SYDNEY,
    expected: due("2026-04-11T02:00:00Z"),
    why: "a week ahead at 12:00, now AEST",
  },

  // --- Sydney, DST starts ---
  {
    phrase: "tomorrow at 2:30 am check the sprinklers",
    mode: "reminder",
    reference: SYDNEY_START,
    timeZone: SYDNEY,
    expected: due("2026-10-03T16:30:00Z"),
    why: "02:30 is skipped: 03:30 AEDT",
  },
  {
    phrase: "Sunday barbecue from 1 to 4 pm",
    mode: "event",
    reference: SYDNEY_START,
    timeZone: SYDNEY,
    expected: span("2026-10-04T02:00:00Z", "2026-10-04T05:00:00Z"),
    why: "afternoon range in AEDT",
  },
  {
    phrase: "tomorrow evening ring Mum",
    mode: "reminder",
    reference: SYDNEY_START,
    timeZone: SYDNEY,
    expected: due("2026-10-04T08:00:00Z"),
    why: "evening is 19:00",
  },
  {
    phrase: "Call with London Monday at 6pm for 2 hours",
    mode: "event",
    reference: SYDNEY_START,
    timeZone: SYDNEY,
    expected: span("2026-10-05T07:00:00Z", "2026-10-05T09:00:00Z"),
    why: "hours duration",
  },
  {
    phrase: "end of day send the invoice",
    mode: "reminder",
    reference: SYDNEY_START,
    timeZone: SYDNEY,
    expected: due("2026-10-03T07:00:00Z"),
    why: "end of day is 17:00 today",
  },

  // --- Kolkata (+05:30, no DST) ---
  {
    phrase: "at 6 pm call Ravi",
    mode: "reminder",
    reference: KOLKATA_MORNING,
    timeZone: KOLKATA,
    expected: due("2026-06-10T12:30:00Z"),
    why: "half-hour offset",
  },
  {
    phrase: "at 3 call the office",
    mode: "reminder",
    reference: KOLKATA_MORNING,
    timeZone: KOLKATA,
    expected: due("2026-06-10T09:30:00Z"),
    why: "3 without am/pm means 15:00",
  },
  {
    phrase: "Standup tomorrow at 9:30 a.m. for 15 minutes",
    mode: "event",
    reference: KOLKATA_MORNING,
    timeZone: KOLKATA,
    expected: span("2026-06-11T04:00:00Z", "2026-06-11T04:15:00Z"),
    why: "a.m. with dots",
  },
  {
    phrase: "Friday from 2 to 3pm review with Priya",
    mode: "event",
    reference: KOLKATA_MORNING,
    timeZone: KOLKATA,
    expected: span("2026-06-12T08:30:00Z", "2026-06-12T09:30:00Z"),
    why: "pm carried to the start",
  },
  {
    phrase: "on the 15th pay the electricity bill",
    mode: "reminder",
    reference: KOLKATA_MORNING,
    timeZone: KOLKATA,
    expected: due("2026-06-15T03:30:00Z"),
    why: "day of month only",
  },
  {
    phrase: "Wedding on June 20 at 7 pm",
    mode: "event",
    reference: KOLKATA_MORNING,
    timeZone: KOLKATA,
    expected: span("2026-06-20T13:30:00Z", "2026-06-20T14:30:00Z"),
    why: "month and day",
  },
  {
    phrase: "Wednesday at 8am yoga",
    mode: "reminder",
    reference: KOLKATA_MORNING,
    timeZone: KOLKATA,
    expected: due("2026-06-17T02:30:00Z"),
    why: "today's weekday, hour already past: next week",
  },
  {
    phrase: "Buy 2 kg rice and 3 packets of dal",
    mode: "note",
    reference: KOLKATA_MORNING,
    timeZone: KOLKATA,
    expected: none,
    why: "numbers that are not dates",
  },
  {
    phrase: "tomorrow at 10am doctor",
    mode: "reminder",
    reference: KOLKATA_NIGHT,
    timeZone: KOLKATA,
    expected: due("2026-06-12T04:30:00Z"),
    why: "already the 11th locally while UTC says the 10th",
  },
  {
    phrase: "at 9 am submit the report",
    mode: "reminder",
    reference: KOLKATA_NIGHT,
    timeZone: KOLKATA,
    expected: due("2026-06-11T03:30:00Z"),
    why: "this morning locally, later today",
  },
  {
    phrase: "Call at midnight for 10 minutes",
    mode: "event",
    reference: KOLKATA_NIGHT,
    timeZone: KOLKATA,
    expected: span("2026-06-11T18:30:00Z", "2026-06-11T18:40:00Z"),
    why: "the next midnight",
  },

  // --- UTC, year end ---
  {
    phrase: "tomorrow at noon renew the domain",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: due("2026-12-31T12:00:00Z"),
    why: "noon",
  },
  {
    phrase: "New year brunch on January 2nd at 11am for 2 hours",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2027-01-02T11:00:00Z", "2027-01-02T13:00:00Z"),
    why: "next year",
  },
  {
    phrase: "next Monday at 9 file the report",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: due("2027-01-04T09:00:00Z"),
    why: "next Monday across the year end",
  },
  {
    phrase: "Conference call at 4pm EST tomorrow",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2026-12-31T21:00:00Z", "2026-12-31T22:00:00Z"),
    why: "a named zone wins over the reference zone",
  },
  {
    phrase: "in 90 minutes stretch",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: due("2026-12-30T16:30:00Z"),
    why: "minutes from now",
  },
  {
    phrase: "Drinks between 6 and 8 pm tomorrow",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2026-12-31T18:00:00Z", "2026-12-31T20:00:00Z"),
    why: "between ... and ...",
  },
  {
    phrase: "Quick call at half past 4 pm",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2026-12-30T16:30:00Z", "2026-12-30T17:30:00Z"),
    why: "half past",
  },
  {
    phrase: "Dinner at 7 in the evening on Friday",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2027-01-01T19:00:00Z", "2027-01-01T20:00:00Z"),
    why: "in the evening",
  },
  {
    phrase: "Remind me to call Sam",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: none,
    why: "no date at all: nothing read",
  },
  {
    phrase: "a 30-minute call tomorrow at 10am",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2026-12-31T10:00:00Z", "2026-12-31T10:30:00Z"),
    why: "duration as an adjective",
  },
  {
    phrase: "Night shift from 11pm to 7am",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2026-12-30T23:00:00Z", "2026-12-31T07:00:00Z"),
    why: "range over midnight",
  },
  {
    phrase: "quarter to 5 call the bank",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: due("2026-12-30T16:45:00Z"),
    why: "quarter to",
  },
  {
    phrase: "Workshop March the 5th at 10am for an hour and a half",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2027-03-05T10:00:00Z", "2027-03-05T11:30:00Z"),
    why: "month the ordinal; hour and a half",
  },
  {
    phrase: "on 1/15 at 8 am dentist",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: due("2027-01-15T08:00:00Z"),
    why: "numeric date, next year",
  },
  {
    phrase: "What is the best time to run tomorrow, 6am or 6pm?",
    mode: "research",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: none,
    why: "research carries no dates",
  },
  {
    phrase: "Tomorrow I have lunch with Alex at 1pm",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2026-12-31T13:00:00Z", "2026-12-31T14:00:00Z"),
    why: "date and time apart in the sentence",
  },
  {
    phrase: "call mom tomorrow and the dentist on Friday",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: none,
    why: "two different days: ambiguous, nothing read",
  },
  {
    phrase: "remind me at four thirty to call the vet",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: due("2026-12-30T16:30:00Z"),
    why: "clock time in words",
  },
  {
    phrase: "standup at 0845 on Monday",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2027-01-04T08:45:00Z", "2027-01-04T09:45:00Z"),
    why: "four-digit time",
  },
  {
    phrase: "in one and a half hours check the bread",
    mode: "reminder",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: due("2026-12-30T16:30:00Z"),
    why: "and a half",
  },
  {
    phrase: "Dinner with Ana at 8",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: span("2026-12-30T20:00:00Z", "2026-12-30T21:00:00Z"),
    why: "dinner means the evening",
  },
  {
    phrase: "Christmas Eve at 6pm family dinner",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: none,
    why: "a holiday chrono cannot read: nothing read rather than today at 6pm",
  },
  {
    phrase: "Movie night Saturday at 9",
    mode: "event",
    reference: UTC_YEAR_END,
    timeZone: UTC,
    expected: none,
    why: "chrono drops the weekday here: nothing read rather than tonight",
  },
];
