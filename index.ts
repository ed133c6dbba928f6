/**
 * The OpenClaw plugin's entry: registers the tools of the training log its config names (`upstream`: Strava's 11,
 * or intervals.icu's) as `fitness_<name>`; unless the config says `writeApproval: "chat"`, the hook that holds
 * every write for a person's approval; and the coach's debriefs of new workouts (a service, and the plugin-only
 * tool the athlete switches them with). The manifest lists the tools of both logs and the plugin-only ones; only
 * the chosen log's are registered, with the plugin-only ones. Registration only; the tools, their validation and
 * the upstream clients live in tools/, config resolution, the host adapters, the approval hook and the debriefs
 * in plugin/.
 */
import { toolTableFor } from "./tools/table.ts";
import type { PluginApi } from "./plugin/host-api.ts";
import { resolvePluginSettings } from "./plugin/plugin-config.ts";
import { loggerOverHost } from "./plugin/host-logger.ts";
import { lazyPluginToolDeps } from "./plugin/plugin-tool-deps.ts";
import { hostTool, isOptionalTool } from "./plugin/host-tool.ts";
import { registerTokenSettleService } from "./plugin/token-settle-service.ts";
import { writeApprovalHook, writeToolConfirmationNote, writeToolNames } from "./plugin/write-approval.ts";
import { PreparedCalls } from "./plugin/prepared-calls.ts";
import { setUpDebriefs } from "./plugin/debriefs/debriefs.ts";

export default {
  id: "fitness",
  name: "Fitness (Strava or intervals.icu)",
  description:
    "The athlete's training log on Strava or intervals.icu: activities, profile, streams, uploads and wellness for coaching agents.",
  register(api: PluginApi): void {
    // A bad config value stops the plugin here, with the config path and a good value in the message.
    const settings = resolvePluginSettings(api.pluginConfig);
    const logger = loggerOverHost(api.logger);
    const deps = lazyPluginToolDeps(settings, logger);
    const confirmationNote = writeToolConfirmationNote(settings.writeApproval);
    const timeoutSeconds = settings.writeApprovalTimeoutSeconds;
    // The approval hook leaves each held call validated and built for its tool's execute. A held call waits at
    // most the approval's timeout; a minute more covers the host's own grace. Empty when nothing is held.
    const preparedCalls = new PreparedCalls({ ttlMs: (timeoutSeconds + 60) * 1000 });
    const debriefs = setUpDebriefs(api, settings, deps, logger);
    const table = toolTableFor(settings.upstream);
    for (const tool of table) {
      api.registerTool(hostTool(tool, deps, { confirmationNote, preparedCalls, ...(debriefs ? { observer: debriefs.observer } : {}) }), {
        optional: isOptionalTool(tool),
      });
    }
    debriefs?.register();
    if (settings.writeApproval === "host") {
      api.on("before_tool_call", writeApprovalHook({ deps, timeoutSeconds, preparedCalls, table }), { matcher: writeToolNames(table) });
    }
    registerTokenSettleService(api, deps);
  },
};
