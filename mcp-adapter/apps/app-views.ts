/**
 * The server's MCP Apps: two views a host that supports the Apps extension shows beside a tool's result,
 * each one self-contained HTML resource (built at build time, build-views.mjs):
 *
 * - the ride view for `get_activity_streams`: heart rate, power, speed or pace and altitude over time or
 *   distance, with peaks marked and the key numbers;
 * - the load view for `get_activities`: with `summary: true`, daily load, fitness, fatigue and form and the
 *   weekly totals by sport; for a plain list, the listed activities by day.
 *
 * A tool names its view in `_meta.ui.resourceUri`, and in the legacy `_meta["ui/resourceUri"]` that older
 * hosts read (what the ext-apps SDK's `registerAppTool` writes). The views read the tool's text result,
 * which stays exactly what it was: clients without Apps see no change, and no `structuredContent` is
 * added. A view never calls a tool (each call would spend the athlete's Strava budget). Each resource
 * declares no domain in `_meta.ui.csp`, so a host gives it no network access at all.
 */
import type { ReadResourceResult, Resource, Tool } from "@modelcontextprotocol/server";
import type { McpUiResourceMeta } from "@modelcontextprotocol/ext-apps";
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";

export interface AppView {
  /** The view's name in the build (mcp-adapter/apps/views/<name>-view.ts). */
  name: string;
  uri: string;
  title: string;
  description: string;
  /** The tool whose results it shows. */
  tool: string;
}

export const appViews: readonly AppView[] = [
  {
    name: "ride",
    uri: "ui://openclaw-fitness/ride-view.html",
    title: "Activity chart",
    description:
      "Heart rate, power, speed or pace and altitude of one activity over time or distance, peaks marked, from get_activity_streams.",
    tool: "get_activity_streams",
  },
  {
    name: "load",
    uri: "ui://openclaw-fitness/load-view.html",
    title: "Training load",
    description:
      "Daily load, fitness, fatigue and form and the weekly totals by sport (get_activities with summary), or the listed activities by day.",
    tool: "get_activities",
  },
];

/** No domain of any kind: the views load nothing and connect nowhere. */
const resourceUi: McpUiResourceMeta = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: true,
};

export const appViewResources: readonly Resource[] = appViews.map((view) => ({
  uri: view.uri,
  name: view.name,
  title: view.title,
  description: view.description,
  mimeType: RESOURCE_MIME_TYPE,
  _meta: { ui: resourceUi },
}));

/** `tools` with each view named on the tool it belongs to; the others as they are. */
export function withAppViews(tools: readonly Tool[]): Tool[] {
  return tools.map((tool) => {
    const view = appViews.find((candidate) => candidate.tool === tool.name);
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
