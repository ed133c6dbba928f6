/**
 * Parameter schemas the intervals.icu tools share, in intervals.icu's terms: its activity ids (strings such as
 * "i1234567"; digits alone name an activity synced from Strava, which intervals.icu holds only as a stub), the
 * athlete's local dates, its activity types.
 */
import { Type } from "@sinclair/typebox";
import { StringEnum } from "../../common/schema-check.ts";
import { intervalsActivityTypes } from "../../intervals/activity-types.ts";
import { ToolInputError } from "../arguments/validate-arguments.ts";

export const IntervalsActivityId = (
  description = 'intervals.icu activity id, as get_activities returns it (the `id` field), such as "i1234567".',
) => Type.String({ pattern: "^(i[1-9][0-9]{0,15}|[1-9][0-9]{0,19})$", maxLength: 21, description });

/** A day in the athlete's own calendar, "YYYY-MM-DD". */
export const LocalDate = (description: string) => Type.String({ pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description });

export const IntervalsActivityType = (description: string) => StringEnum(intervalsActivityTypes, { description });

/** An id of digits alone: an activity that reached intervals.icu from Strava (intervals.icu's own ids start with i). */
export function isStravaSyncedId(id: string): boolean {
  return /^\d+$/.test(id);
}

/** Refuses, before anything is sent, a change to an activity intervals.icu holds only as a stub. */
export function refuseChangeToStub(id: string): void {
  if (!isStravaSyncedId(id)) return;
  throw new ToolInputError(
    `Activity ${id} reached intervals.icu from Strava, and intervals.icu cannot change such an activity: its API holds it only as a ` +
      "stub (Strava's rules). Change it where it was recorded, or connect that device to intervals.icu directly so its activities arrive whole.",
  );
}

/** What a tool taking an activity id adds to intervals.icu's 404: where a right id comes from. */
export function intervalsActivityIdHint(status: number): string | undefined {
  return status === 404
    ? 'No activity of the athlete\'s on intervals.icu has this id: take the `id` of an item from get_activities (such as "i1234567").'
    : undefined;
}
