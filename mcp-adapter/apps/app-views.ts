/**
 * The server's MCP Apps: two views a host that supports the Apps extension shows beside a tool's result,
 * each one self-contained HTML resource (built at build time, build/views.mjs):
 *
 * - the ride view for an activity's streams: heart rate, power, speed or pace and altitude over time or
 *   distance, with peaks marked and the key numbers;
 * - the load view for the activity list: with `summary: true`, daily load, fitness, fatigue and form and the
 *   weekly totals by sport; for a plain list, the listed activities by day.
 *
 * Which tool a view belongs to is said on the tool's definition (`view`, by the view's name); this file
 * loops over the tool table and names no tool. A tool names its view in `_meta.ui.resourceUri`, and in the legacy `_meta["ui/resourceUri"]` that older
 * hosts read (what the ext-apps SDK's `registerAppTool` writes). The views read the tool's text result,
 * which stays exactly what it was: clients without Apps see no change, and no `structuredContent` is
 * added. A view never calls a tool (each call would spend the athlete's Strava budget). Each resource
 * declares no domain in `_meta.ui.csp`, so a host gives it no network access at all.
 */
import type { ReadResourceResult, Resource, Tool } from "@modelcontextprotocol/server";
import type { McpUiResourceMeta } from "@modelcontextprotocol/ext-apps";
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import type { ToolDefinition } from "../../tools/definition/tool-definition.ts";
import { toolTable } from "../../tools/table.ts";
import type { ToolCatalog } from "../server/tool-catalog.ts";

export interface AppView {
  /** The view's name in the build (views/<name>-view.ts), as a tool's definition names it (`view`). */
  name: string;
  uri: string;
  title: string;
  /** What it shows, given the name of the tool whose results it draws. */
  describe(toolName: string): string;
}

export const appViews: readonly AppView[] = [
  {
    name: "ride",
    uri: "ui://openclaw-fitness/ride-view.html",
    title: "Activity chart",
    describe: (tool) => `Heart rate, power, speed or pace and altitude of one activity over time or distance, peaks marked, from ${tool}.`,
  },
  {
    name: "load",
    uri: "ui://openclaw-fitness/load-view.html",
    title: "Training load",
    describe: (tool) =>
      `Daily load, fitness, fatigue and form and the weekly totals by sport (${tool} with summary), or the listed activities by day.`,
  },
];

/** The view whose name a tool's definition gives; undefined for a tool without one. */
export function viewOf(tool: ToolDefinition | undefined): AppView | undefined {
  return tool?.view === undefined ? undefined : appViews.find((view) => view.name === tool.view);
}

/** No domain of any kind: the views load nothing and connect nowhere. */
const resourceUi: McpUiResourceMeta = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: true,
};

/** Each view drawn by a tool of the table, as a resource described by that tool's name. */
export const appViewResources: readonly Resource[] = appViews.flatMap((view) => {
  const tool = toolTable.find((candidate) => viewOf(candidate) === view);
  if (tool === undefined) return [];
  return [
    {
      uri: view.uri,
      name: view.name,
      title: view.title,
      description: view.describe(tool.name),
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: resourceUi },
    },
  ];
});

/** The catalog's tools with each view named on the tool whose definition names it; the others as they are. */
export function withAppViews(catalog: ToolCatalog): Tool[] {
  return catalog.tools.map((tool) => {
    const view = viewOf(catalog.byName.get(tool.name));
    return view ? { ...tool, _meta: { ...tool._meta, ui: { resourceUri: view.uri }, [RESOURCE_URI_META_KEY]: view.uri } } : tool;
  });
}

/** A view as a resources/read result; undefined when `uri` is not a view. */
export async function readAppView(uri: string): Promise<ReadResourceResult | undefined> {
  const view = appViews.find((candidate) => candidate.uri === uri);
  if (view === undefined) return undefined;
  // Loaded on first read: most connections never read a view, and the HTML is large.
  const { viewHtml } = await import("./view-html.ts");
  const html = viewHtml[view.name];
  if (html === undefined) throw new Error(`The build has no ${view.name} view.`);
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: html, _meta: { ui: resourceUi } }] };
}
