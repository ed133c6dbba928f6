/**
 * `get_wellness` on intervals.icu: get wellness (`GET /athlete/{id}/wellness`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "../definition/tool-definition.ts";
import { checkFields, FieldsParameter } from "../answers/field-projection.ts";
import { intervalsWellnessModel } from "./intervals-fields.ts";
import { LocalDate } from "./intervals-parameters.ts";
import { dateWindow } from "./local-dates.ts";
import { athletePath, todayOf } from "./request-needs.ts";

/** The longest span answered at once: a year, a leap year's day included. */
export const maxWellnessDays = 366;

export const getWellness = defineTool({
  name: "get_wellness",
  title: "Get wellness",
  description:
    "The athlete's daily wellness records from intervals.icu, one per local date (`id` is the date), oldest first: hrv (rMSSD, ms) " +
    "and hrvSDNN, restingHR (bpm), sleepSecs, sleepScore, sleepQuality, weight (kg), the athlete's own scores (soreness, fatigue, " +
    "stress, mood, motivation, injury: intervals.icu's 1 to 4 scales, 1 the best), and intervals.icu's fitness (ctl), fatigue (atl) " +
    "and rampRate for the day, with the day's load (ctlLoad, atlLoad). Fields without a value are null. Default: the 28 days ending " +
    `today (the athlete's local date); at most ${maxWellnessDays} days at once. Pass fields (e.g. id, hrv, restingHR, sleepSecs, ctl, atl) ` +
    "for a smaller answer (id, the date, is always kept): intervals.icu then also leaves out empty values.",
  parameters: Type.Object(
    {
      oldest: Type.Optional(LocalDate("First day, the athlete's local date YYYY-MM-DD (default: 27 days before newest).")),
      newest: Type.Optional(LocalDate("Last day, included, YYYY-MM-DD (default: the athlete's today).")),
      fields: Type.Optional(
        FieldsParameter(["id", "hrv", "restingHR", "sleepSecs", "ctl", "atl"], { upstream: "intervals.icu", item: "day's record" }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "GET /athlete/{id}/wellness",
  annotations: readOnly,
  async request(args, context) {
    checkFields(intervalsWellnessModel, args.fields);
    const { oldest, newest } = await dateWindow(args, todayOf(context), { defaultDays: 28, maxDays: maxWellnessDays });
    return {
      method: "GET",
      path: `${await athletePath(context)}/wellness`,
      // The date (`id`) is kept with any fields: a record without it says nothing.
      query: { oldest, newest, fields: args.fields ? [...new Set(["id", ...args.fields])].join(",") : undefined },
    };
  },
});
