/**
 * The noticing: one check of the athlete's log, and what it leads to. A check is one request, the activities
 * started in the last 48 hours (so a watch that syncs a day late is still noticed), compared by id with the
 * ids already seen; only something new wakes the coach, so a day without workouts costs no model call.
 *
 * No check is made while debriefs are off, during quiet hours (the first check after them finds what came
 * meanwhile), while the upstream's rate-limit headers show 80% or more of a read window used (until it
 * resets), or during the back-off after a failed check. The first check after debriefs are turned on takes
 * a baseline: what the log holds then is seen, not debriefed; it wakes no one, so quiet hours do not defer it. What the coach made itself (its ids are noted
 * as its write tools answer) is seen, not debriefed. New ids are written down before the coach is woken, so
 * a restart never sends a second debrief (a crash between the two loses that one debrief rather than
 * repeating it). Several new activities, those that came while the gateway was down included, make one
 * wake naming at most five.
 *
 * A failed check (a refused token, the upstream down) is logged each time, told to the athlete once per run
 * of failures, and backed off: twice the interval, then four times, up to six hours (or the interval, if
 * longer). Every instant comes from the `now` given, so tests drive it with the suite's clock.
 */
import type { Logger } from "../../common/logger.ts";
import type { RecentActivities } from "../../tools/recent-activities.ts";
import type { CreatedActivity } from "../../tools/definition/tool-definition.ts";
import type { ToolResult } from "../../tools/runner/tool-result.ts";
import type { PluginSettings } from "../plugin-config.ts";
import { debriefPlan, type DebriefPlan } from "./debrief-choice.ts";
import { forgetOld, type DebriefRecordData, type DebriefRecordFile } from "./debrief-record.ts";
import { failedCheckEvent, newActivitiesEvent, type CheckFailureCause, type WakeCoach } from "./debrief-wake.ts";
import { isQuiet, parseQuietHours, quietEndsAt, type QuietHours } from "./quiet-hours.ts";

/** How far back a check lists: a device that syncs up to two days late is still debriefed. */
export const lookBackMs = 48 * 60 * 60 * 1000;
/** Checks pause while this share of a read window is used. */
export const readBudgetShare = 0.8;
/** A check that met a write of the coach's in progress tries again this much later. */
export const busyRetryMs = 5_000;
/** The longest back-off after failed checks (unless the interval itself is longer). */
export const maxBackOffMs = 6 * 60 * 60 * 1000;

export type DebriefSettings = Pick<
  PluginSettings,
  "debriefs" | "debriefAgent" | "debriefQuietHours" | "debriefTimeZone" | "debriefTestIntervalSeconds"
>;

export interface DebriefWatchDeps {
  settings: DebriefSettings;
  record: DebriefRecordFile;
  /** The activities started since an instant (tools/recent-activities.ts through the plugin's tool dependencies). */
  listRecent(sinceMs: number): Promise<RecentActivities>;
  /** Until when the upstream's read budget asks background reads to wait (undefined: go ahead). */
  readsResumeAt(share: number): Promise<number | undefined>;
  wake: WakeCoach;
  logger: Logger;
  now: () => number;
  /** The zone for quiet hours before the log has shown the athlete's (the gateway's own). */
  fallbackTimeZone: string;
  /**
   * Write calls of the coach's in progress: a check waits for them, so an activity the coach is creating
   * right now is noted as the coach's before a list could show it.
   */
  writesInFlight(): number;
}

export type CheckOutcome =
  | { kind: "off" }
  | { kind: "quiet"; nextAtMs: number }
  | { kind: "backing-off"; nextAtMs: number }
  | { kind: "rate-limited"; nextAtMs: number }
  | { kind: "busy"; nextAtMs: number }
  | { kind: "baseline"; seen: number; nextAtMs: number }
  | { kind: "nothing-new"; nextAtMs: number }
  | { kind: "woke"; ids: string[]; nextAtMs: number }
  | { kind: "failed"; cause: CheckFailureCause; told: boolean; nextAtMs: number };

export class DebriefWatch {
  readonly #deps: DebriefWatchDeps;
  readonly #quiet: QuietHours | undefined;

  constructor(deps: DebriefWatchDeps) {
    this.#deps = deps;
    this.#quiet = parseQuietHours(deps.settings.debriefQuietHours);
  }

  /** On or off, how often, and who decided, as of now. */
  async plan(): Promise<DebriefPlan> {
    return debriefPlan(this.#deps.settings, (await this.#deps.record.read()).athleteChoice);
  }

  /** The zone quiet hours are read in: the setting's, else the athlete's as the log last showed it, else the gateway's. */
  async timeZone(): Promise<string> {
    return this.#deps.settings.debriefTimeZone || (await this.#deps.record.read()).timeZone || this.#deps.fallbackTimeZone;
  }

  get quietHours(): QuietHours | undefined {
    return this.#quiet;
  }

  /** One check, as of `now`; the outcome says when the next one is due (none while off). */
  async check(): Promise<CheckOutcome> {
    const { record, logger } = this.#deps;
    const nowMs = this.#deps.now();
    const data = await record.read();
    const plan = debriefPlan(this.#deps.settings, data.athleteChoice);
    if (!plan.on) return await this.#off(data);
    const nextAtMs = nowMs + plan.intervalMs;
    const waiting = await this.#waiting(data, nowMs, nextAtMs);
    if (waiting) return waiting;
    const listed = await this.#deps.listRecent(nowMs - lookBackMs);
    if (!listed.ok) return await this.#failed(listed.error, plan, nowMs);
    const decision = await this.#noteListed(listed, nowMs);
    if (!decision.on) return { kind: "off" };
    if (decision.recovered) logger.info("debrief_check_recovered", { listed: listed.activities.length });
    if (decision.baseline) {
      logger.info("debrief_baseline", { seen: listed.activities.length, note: "debriefs are on; what the log holds now is not debriefed" });
      return { kind: "baseline", seen: listed.activities.length, nextAtMs };
    }
    const freshIds = decision.fresh;
    if (freshIds.length === 0) return { kind: "nothing-new", nextAtMs };
    const accepted = this.#deps.wake(newActivitiesEvent(freshIds), `fitness-debrief:${freshIds.join(",")}`);
    if (accepted) logger.info("debrief_wake", { agent: this.#deps.settings.debriefAgent, activities: freshIds });
    else logger.warn("debrief_wake_refused", { agent: this.#deps.settings.debriefAgent, activities: freshIds });
    return { kind: "woke", ids: freshIds, nextAtMs };
  }

  /** Off: the next time they are turned on starts from a new baseline. */
  async #off(data: DebriefRecordData): Promise<CheckOutcome> {
    if (data.baselined || data.failure) {
      await this.#deps.record.update((d) => {
        d.baselined = false;
        delete d.failure;
      });
    }
    return { kind: "off" };
  }

  /** Why this check waits, if it does: a back-off after failures, quiet hours, the read budget, a write of the coach's. */
  async #waiting(data: DebriefRecordData, nowMs: number, nextAtMs: number): Promise<CheckOutcome | undefined> {
    if (data.failure && nowMs < data.failure.nextCheckAtMs) return { kind: "backing-off", nextAtMs: data.failure.nextCheckAtMs };
    const zone = await this.timeZone();
    // The baseline wakes no one, so it is taken at once, quiet or not: what came after debriefs were turned on is new.
    if (data.baselined && this.#quiet && isQuiet(this.#quiet, nowMs, zone)) {
      return { kind: "quiet", nextAtMs: quietEndsAt(this.#quiet, nowMs, zone) };
    }
    const resumeAt = await this.#deps.readsResumeAt(readBudgetShare);
    if (resumeAt !== undefined && resumeAt > nowMs) {
      this.#deps.logger.info("debrief_check_skipped", {
        reason: "upstream read limit at 80% or more",
        resumes_at: new Date(resumeAt).toISOString(),
      });
      return { kind: "rate-limited", nextAtMs: Math.max(resumeAt, nextAtMs) };
    }
    if (this.#deps.writesInFlight() > 0) return { kind: "busy", nextAtMs: nowMs + busyRetryMs };
    return undefined;
  }

  /**
   * Writes down what the list showed, and decides on the record as it is on disk now (the athlete may have switched,
   * the coach may have written): still on, whether this was the baseline, whether failures ended, and what is new.
   */
  async #noteListed(
    listed: Extract<RecentActivities, { ok: true }>,
    nowMs: number,
  ): Promise<{ on: boolean; baseline: boolean; recovered: boolean; fresh: string[] }> {
    let decision = { on: false, baseline: false, recovered: false, fresh: [] as string[] };
    await this.#deps.record.update((d) => {
      const on = debriefPlan(this.#deps.settings, d.athleteChoice).on;
      const coachMade = (activity: { id: string; uploadId?: string }): boolean =>
        activity.id in d.coachMade.activities || (activity.uploadId !== undefined && activity.uploadId in d.coachMade.uploads);
      decision = {
        on,
        baseline: !d.baselined,
        recovered: d.failure !== undefined,
        fresh: on && d.baselined ? listed.activities.filter((a) => !(a.id in d.seen) && !coachMade(a)).map((a) => a.id) : [],
      };
      for (const activity of listed.activities) d.seen[activity.id] = activity.startedAtMs;
      if (listed.timeZone) d.timeZone = listed.timeZone;
      delete d.failure;
      d.baselined = on;
      forgetOld(d, nowMs);
    });
    return decision;
  }

  async #failed(error: ToolResult, plan: DebriefPlan, nowMs: number): Promise<CheckOutcome> {
    const cause = failureCause(error);
    const previous = (await this.#deps.record.read()).failure;
    const count = (previous?.count ?? 0) + 1;
    const backOffMs = Math.min(plan.intervalMs * 2 ** count, Math.max(maxBackOffMs, plan.intervalMs));
    const nextAtMs = nowMs + backOffMs;
    const tell = !previous?.told;
    await this.#deps.record.update((d) => {
      d.failure = { count, sinceMs: previous?.sinceMs ?? nowMs, nextCheckAtMs: nextAtMs, told: true };
    });
    this.#deps.logger.warn("debrief_check_failed", {
      cause,
      failures_in_a_row: count,
      next_check: new Date(nextAtMs).toISOString(),
      athlete_told: tell ? "now" : "before",
      message: error.content[0].text,
    });
    if (tell && !this.#deps.wake(failedCheckEvent(cause), "fitness-debrief:check-failed")) {
      this.#deps.logger.warn("debrief_wake_refused", { agent: this.#deps.settings.debriefAgent, notice: "check failed" });
    }
    return { kind: "failed", cause, told: tell, nextAtMs };
  }

  /**
   * Notes what a tool call of the coach's made: a write's activities or upload, or (a read of a Strava upload's
   * status) the activity an upload of the coach's became.
   */
  async noteCoachMade(made: CreatedActivity, byWrite: boolean): Promise<void> {
    const data = await this.#deps.record.read();
    const { activityIds = [], uploadId } = made;
    const newActivity = activityIds.some((id) => !(id in data.coachMade.activities));
    const news = byWrite
      ? newActivity || (uploadId !== undefined && !(uploadId in data.coachMade.uploads))
      : newActivity && uploadId !== undefined && uploadId in data.coachMade.uploads;
    if (!news) return;
    const nowMs = this.#deps.now();
    await this.#deps.record.update((d) => {
      if (byWrite && uploadId !== undefined) d.coachMade.uploads[uploadId] = nowMs;
      for (const id of activityIds) d.coachMade.activities[id] = nowMs;
    });
  }

  /** The athlete's choice in chat: kept with the setting it was made under; off also drops the baseline. */
  async choose(enabled: boolean): Promise<DebriefPlan> {
    const data = await this.#deps.record.update((d) => {
      d.athleteChoice = { enabled, setting: this.#deps.settings.debriefs, atMs: this.#deps.now() };
      if (!enabled) {
        d.baselined = false;
        delete d.failure;
      }
    });
    return debriefPlan(this.#deps.settings, data.athleteChoice);
  }

  /** The record as it stands (for the switch tool's answer and tests). */
  async snapshot(): Promise<DebriefRecordData> {
    return await this.#deps.record.read();
  }
}

/** What kind of failure a list error was, from its status or error kind (never its wording). */
export function failureCause(error: ToolResult): CheckFailureCause {
  const status = error.upstreamStatus;
  if (status === 401 || status === 403) return "refused";
  if (status === 429) return "rate-limited";
  if (status !== undefined && status >= 500) return "unavailable";
  switch (error.errorKind) {
    case "RefreshTokenRejectedError":
    case "ApplicationInactiveError":
      return "refused";
    case "UpstreamTimeoutError":
    case "UpstreamNetworkError":
    case "UpstreamBodyError":
      return "unavailable";
    default:
      return "other";
  }
}
