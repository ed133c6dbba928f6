/**
 * The MCP Apps views as resources: each one self-contained HTML document built at build time, served the
 * same from the TypeScript sources (in this process) and from the built bundle (a child process, as `npm
 * start` runs it), and equal to a fresh build of the views' sources. Each declares no domain in its
 * `_meta.ui.csp` (a host gives it no network access), carries the restrictive policy itself, loads nothing,
 * and stays within its size budget. That the views draw the data is test/mcp-adapter/app-views-in-browser.test.ts.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Client, StreamableHTTPClientTransport, type ReadResourceResult } from "@modelcontextprotocol/client";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { buildViews, viewContentSecurityPolicy, type ViewsBuild } from "../../build/views.mjs";
import { appViews } from "../../mcp-adapter/apps/app-views.ts";
import { toolTable } from "../../tools/table.ts";
import { startInProcessMcp, type InProcessMcp } from "../support/in-process-mcp.ts";
import { sandboxEnv, scratchDirectory, spawnMcpChild, type McpChild } from "./mcp-child.ts";

/** Each view with the ext-apps SDK bundled is about 650 KB: 900 KB leaves room for the drawing code. */
const budgetBytes = 900 * 1024;
const authToken = `views-${randomBytes(16).toString("hex")}`;

let sandbox: RunningSandbox;
let inProcess: InProcessMcp;
let child: McpChild;
let scratch: ReturnType<typeof scratchDirectory>;
let childUrl: string;
let fresh: ViewsBuild;

beforeAll(async () => {
  sandbox = await startSandbox({ rotateRefreshTokens: false });
  scratch = scratchDirectory();
  child = spawnMcpChild({ env: sandboxEnv(sandbox, { authToken, tokenDirectory: scratch.path }) });
  inProcess = await startInProcessMcp(sandbox);
  childUrl = String((await child.waitForEvent("listening"))["url"]);
  fresh = await buildViews();
}, 120_000);

afterAll(async () => {
  await inProcess?.close();
  await child?.stop();
  await sandbox?.close();
  scratch?.remove();
});

async function readAll(url: string, token: string): Promise<Map<string, ReadResourceResult>> {
  const client = new Client({ name: "views", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    const read = new Map<string, ReadResourceResult>();
    for (const view of appViews) read.set(view.name, await client.readResource({ uri: view.uri }));
    return read;
  } finally {
    await client.close();
  }
}

function htmlOf(result: ReadResourceResult | undefined): string {
  const item = result?.contents[0];
  if (item === undefined || !("text" in item)) throw new Error("expected a text resource");
  return item.text;
}

describe("the views as resources", () => {
  test("the sources and the built bundle serve each view exactly as a fresh build of its sources", async () => {
    const fromSources = await readAll(inProcess.mcpUrl, inProcess.authToken);
    const fromBundle = await readAll(childUrl, authToken);
    for (const view of appViews) {
      expect(htmlOf(fromSources.get(view.name)), view.name).toBe(fresh.html[view.name]);
      expect(htmlOf(fromBundle.get(view.name)), view.name).toBe(fresh.html[view.name]);
    }
  });

  test("each is an MCP App resource that may connect nowhere, and loads nothing from anywhere", async () => {
    const read = await readAll(inProcess.mcpUrl, inProcess.authToken);
    for (const view of appViews) {
      const item = read.get(view.name)?.contents[0];
      expect(item).toMatchObject({ uri: view.uri, mimeType: "text/html;profile=mcp-app" });
      expect(item?._meta).toEqual({
        ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
      });
      const html = htmlOf(read.get(view.name));
      expect(html.startsWith("<!doctype html>")).toBe(true);
      // One inline script and one inline style sheet; no element with a source or a link, no CSS that fetches.
      expect(html.match(/<script\b/g)).toHaveLength(1);
      const script = /<script type="module">([\s\S]*)<\/script>/.exec(html)?.[1] ?? "";
      const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? "";
      expect(policy).toBe(viewContentSecurityPolicy(script));
      expect(policy).toContain("connect-src 'none'");
      // The one inline script runs because of its hash, computed when the view was built; nothing else inline does.
      const directives = new Map(policy.split(/;\s*/).map((directive) => [directive.split(" ")[0], directive.split(" ").slice(1)]));
      expect(directives.get("script-src")).toEqual([`'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`]);
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      const markup = html.replace(/<script type="module">[\s\S]*<\/script>/, "");
      const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
      expect(markup.match(/\s(src|href|srcset|action)=|<link\b|<iframe\b|<object\b|<embed\b/gi) ?? []).toEqual([]);
      expect(css.match(/url\(|@import/gi) ?? []).toEqual([]);
    }
  });

  test("each is drawn for exactly one tool of the table, whose definition names it, and every view a tool names exists", () => {
    for (const view of appViews) expect(toolTable.filter((tool) => tool.view === view.name).length, view.name).toBe(1);
    const names = appViews.map((view) => view.name);
    for (const tool of toolTable) if (tool.view !== undefined) expect(names, tool.name).toContain(tool.view);
  });

  test(`each is within ${budgetBytes / 1024} KB`, () => {
    for (const view of appViews) expect(Buffer.byteLength(fresh.html[view.name]!), view.name).toBeLessThanOrEqual(budgetBytes);
  });
});
