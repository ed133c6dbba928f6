/**
 * `get_activity_zones` on intervals.icu: get activity zones (`GET /activity/{id}`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "../definition/tool-definition.ts";
import { activityZonesText, zoneFields } from "./activity-answers.ts";
import { IntervalsActivityId, intervalsActivityIdHint } from "./intervals-parameters.ts";

export const getActivityZones = defineTool({
  name: "get_activity_zones",
  title: "Get activity zones",
  description:
    "Time spent in each heart-rate, power and pace zone during one activity, as intervals.icu worked it out: the activity's " +
    `${zoneFields.join(", ")} fields (intervals.icu has no zones request of its own; this reads the activity and keeps these). ` +
    "icu_hr_zones are each zone's top in bpm and icu_hr_zone_times the seconds in each; icu_power_zones are each zone's top in % " +
    "of FTP and icu_zone_times [{id: Z1..Z7 or SS (sweet spot), secs}]; null where the activity has no such data. An activity " +
    "that reached intervals.icu from Strava is only a stub there: the answer says so.",
  parameters: Type.Object({ id: IntervalsActivityId() }, { additionalProperties: false }),
  upstream: "GET /activity/{id}",
  annotations: readOnly,
  request(args) {
    return { method: "GET", path: `/activity/${encodeURIComponent(args.id)}` };
  },
  resultText(bodyText) {
    return activityZonesText(bodyText);
  },
  errorHint: intervalsActivityIdHint,
});
