/**
 * Every environment variable the project reads (and those its libraries read), in one list, by section:
 * the settings table of docs/operators/settings.md and the MCP server's usage text are made from it
 * (settings-reference.ts), and a test keeps both equal to what it makes.
 */
import * as credentials from "./credential-variables.ts";
import * as host from "./host-variables.ts";
import * as intervals from "./intervals-variables.ts";
import { libraryVariables } from "./library-variables.ts";
import * as oauth from "./oauth-variables.ts";
import * as sandbox from "./sandbox-variables.ts";
import * as server from "./server-variables.ts";
import type { Setting } from "./setting.ts";
import * as strava from "./strava-variables.ts";
import * as voice from "./voice-variables.ts";

export interface SettingsSection {
  title: string;
  settings: readonly Setting<unknown>[];
}

const declared = (group: Record<string, unknown>): Setting<unknown>[] =>
  Object.values(group)
    .filter((value): value is Setting<unknown> => typeof value === "object" && value !== null && "name" in value && "parse" in value)
    .sort((a, b) => a.name.localeCompare(b.name));

export const settingsInventory: readonly SettingsSection[] = [
  { title: "The MCP server", settings: declared(server) },
  { title: "Strava credentials and where they are kept", settings: declared(credentials) },
  { title: "Strava's addresses", settings: declared(strava) },
  { title: "intervals.icu, the second training log", settings: declared(intervals) },
  { title: "OAuth mode (MCP_AUTH=oauth) and the hosted deployment", settings: declared(oauth) },
  { title: "The voice capture API", settings: declared(voice) },
  { title: "The sandbox", settings: declared(sandbox) },
  { title: "The OpenClaw host, for npm run setup:coach", settings: declared(host) },
  { title: "Read by libraries (the AWS SDK, Node)", settings: libraryVariables },
];

/** Every declared variable, once. */
export function allSettings(): Setting<unknown>[] {
  return settingsInventory.flatMap((section) => section.settings);
}
