/**
 * What an intervals.icu tool asks of the running service while it builds a request: the athlete's local date
 * today, which every default date window ends on, and the time zone it is taken in.
 */
import type { RequestContext } from "../definition/tool-definition.ts";

/** The athlete's today from `context`; a service without one (a bug: intervals.icu's dependencies always give it) is an error. */
export function todayOf(context: RequestContext): () => Promise<string> {
  return async () => {
    if (context.today === undefined) throw new Error("the service gives no local date for the athlete");
    return context.today(context.signal);
  };
}

/** The athlete's id as intervals.icu's paths take it ("0": the key's own athlete). */
export async function athletePath(context: RequestContext): Promise<string> {
  return `/athlete/${encodeURIComponent(String(await context.athleteId(context.signal)))}`;
}

/** The athlete's time zone from `context`; a service without one is a bug, as for `todayOf`. */
export async function timeZoneOf(context: RequestContext): Promise<string> {
  if (context.timeZone === undefined) throw new Error("the service gives no time zone for the athlete");
  return context.timeZone(context.signal);
}
