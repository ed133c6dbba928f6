/**
 * The coach speaks first: after each new workout in the athlete's log, a short debrief on the channel the
 * coach is bound to, without being asked. This puts the parts together on the host's own mechanisms:
 *
 * - a plugin service (`api.registerService`) whose timer runs the checks (plugin/debriefs/debrief-schedule.ts,
 *   the noticing itself in debrief-watch.ts): the host starts it with the gateway and awaits its stop;
 * - the checks read the log through its own list tool and the same client as every call
 *   (tools/recent-activities.ts, which speaks Strava's and intervals.icu's terms), so they count against the
 *   same rate limits; they wait while the client says background reads should (`backgroundReadsResumeAt`,
 *   Strava's rate-limit headers; intervals.icu's client never asks them to);
 * - what must survive a restart is kept in a file in the host's state directory (debrief-record.ts says
 *   why not the host's keyed plugin state, which 2026.9.6 keeps for trusted plugins);
 * - the coach is woken with a system event and a targeted wake of its main session (debrief-wake.ts);
 * - a plugin-only tool lets the bound athlete turn debriefs off and on (debrief-switch-tool.ts);
 * - every fitness tool call is watched for activities the coach made itself, never to be debriefed.
 *
 * A host without a plugin runtime (older than openclaw 2026.9) gets no debriefs, said once in the log.
 */
import { join } from "node:path";
import type { Logger } from "../../common/logger.ts";
import { listRecentActivities } from "../../tools/recent-activities.ts";
import type { ToolDefinition } from "../../tools/definition/tool-definition.ts";
import { errorResult, type ToolResult } from "../../tools/runner/tool-result.ts";
import { messageOf } from "../../common/named-error.ts";
import type { PluginApi, PluginRuntime } from "../host-api.ts";
import type { ToolCallObserver } from "../host-tool.ts";
import type { PluginSettings } from "../plugin-config.ts";
import type { LazyToolDeps } from "../plugin-tool-deps.ts";
import { DebriefRecordFile } from "./debrief-record.ts";
import { DebriefSchedule } from "./debrief-schedule.ts";
import { debriefSwitchTool, debriefSwitchToolName } from "./debrief-switch-tool.ts";
import { wakeThroughHost } from "./debrief-wake.ts";
import { DebriefWatch, type CheckOutcome } from "./debrief-watch.ts";
import { processWide } from "./process-wide.ts";

export const debriefServiceId = "fitness-debriefs";

/** Where the debriefs' record lives under the host's state directory. */
export function debriefRecordPath(stateDir: string): string {
  return join(stateDir, "fitness", "debriefs.json");
}

export interface DebriefOptions {
  now?: () => number;
  onOutcome?: (outcome: CheckOutcome) => void;
}

export interface Debriefs {
  /** What the fitness tools report their calls to (the coach's own writes are never debriefed). */
  observer: ToolCallObserver;
  /** Registers the service and the athlete's switch (after the table's tools, as the manifest lists them). */
  register(): void;
}

/** The debriefs on this host, or undefined on a host without a plugin runtime. */
export function setUpDebriefs(
  api: PluginApi,
  settings: PluginSettings,
  deps: LazyToolDeps,
  logger: Logger,
  options: DebriefOptions = {},
): Debriefs | undefined {
  const runtime = api.runtime;
  if (!runtime?.system || !runtime.state || !api.registerService) {
    if (settings.debriefs !== "off") {
      logger.warn("debriefs_unavailable", {
        reason: "this host has no plugin runtime with services and system events (openclaw 2026.9 or later)",
      });
    }
    return undefined;
  }
  const now = options.now ?? Date.now;
  const record = new DebriefRecordFile(debriefRecordPath(runtime.state.resolveStateDir()), logger);
  const watch = debriefWatch(runtime, settings, deps, { record, logger, now });
  const schedule = new DebriefSchedule({ watch, logger, now, ...(options.onOutcome ? { onOutcome: options.onOutcome } : {}) });
  return {
    observer: coachCallObserver(watch, logger),
    register: () => registerDebriefs(api, settings, { watch, schedule, record, logger }),
  };
}

/** The noticing, reading the log through the plugin's tool dependencies and waking the coach through the host. */
function debriefWatch(
  runtime: PluginRuntime,
  settings: PluginSettings,
  deps: LazyToolDeps,
  { record, logger, now }: { record: DebriefRecordFile; logger: Logger; now: () => number },
): DebriefWatch {
  const shared = processWide();
  return new DebriefWatch({
    settings,
    record,
    listRecent: async (sinceMs) => {
      try {
        return await listRecentActivities(await deps(), sinceMs);
      } catch (error) {
        // Only building the dependencies throws (a bad upstream setting): a failed check like any other.
        return { ok: false, error: errorResult(messageOf(error), undefined, "ConfigurationError") };
      }
    },
    readsResumeAt: async (share) => {
      try {
        return (await deps()).client.backgroundReadsResumeAt(share);
      } catch {
        // Dependencies that cannot be built hold no read budget: the list right after fails with their error.
        return undefined;
      }
    },
    wake: wakeThroughHost(runtime.system, settings.debriefAgent),
    logger,
    now,
    fallbackTimeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    writesInFlight: () => shared.writesInFlight,
  });
}

/** The service whose timer runs the checks (its stop waits for the record), and the athlete's switch. */
function registerDebriefs(
  api: PluginApi,
  settings: PluginSettings,
  { watch, schedule, record, logger }: { watch: DebriefWatch; schedule: DebriefSchedule; record: DebriefRecordFile; logger: Logger },
): void {
  const shared = processWide();
  api.registerService?.({
    id: debriefServiceId,
    start: () => schedule.start(),
    stop: async () => {
      await schedule.stop();
      await record.settle();
    },
  });
  api.registerTool(
    debriefSwitchTool({
      watch,
      agentId: settings.debriefAgent,
      changed: () => {
        for (const listener of shared.switched) listener();
      },
      refused: (reason) => logger.debug("debrief_switch_withheld", { reason }),
    }),
    { name: debriefSwitchToolName },
  );
}

/** Watches every fitness tool call: a write is in flight until what it made is in the record, never to be debriefed. */
function coachCallObserver(watch: DebriefWatch, logger: Logger): ToolCallObserver {
  const shared = processWide();
  return {
    started(tool: ToolDefinition) {
      if (!tool.annotations.readOnlyHint) shared.writesInFlight += 1;
    },
    async finished(tool: ToolDefinition, result: ToolResult) {
      try {
        const made = !result.isError && tool.createdActivity ? tool.createdActivity(result.content[0].text) : undefined;
        if (made) await watch.noteCoachMade(made, !tool.annotations.readOnlyHint);
      } catch (error) {
        logger.error("debrief_record_failed", { tool: tool.name, error });
      } finally {
        // Only once what it made is in the record: a check waits for writes in flight.
        if (!tool.annotations.readOnlyHint) shared.writesInFlight -= 1;
      }
    },
  };
}
