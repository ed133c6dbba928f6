/**
 * The tools the plugin registers beside the tool table's: plugin features with no MCP counterpart, so the
 * MCP server's tool list stays the table's. The manifest generator (scripts/plugin-manifest.ts) lists them
 * in `contracts.tools` too, since the host drops a tool its manifest does not declare.
 */
import { debriefSwitchToolName } from "./debriefs/debrief-switch-tool.ts";

export interface PluginOnlyTool {
  name: string;
  /** It changes something (the plugin's own state), so the host must not replay it. */
  sideEffecting: boolean;
}

export const pluginOnlyTools: readonly PluginOnlyTool[] = Object.freeze([{ name: debriefSwitchToolName, sideEffecting: true }]);
