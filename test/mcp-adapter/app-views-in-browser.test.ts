/**
 * The two MCP Apps views in a real browser: Debian's Chromium, headless, driven by playwright-core, each view
 * loaded as the server serves it (resources/read) into a sandboxed iframe by the ext-apps SDK's own host side
 * (AppBridge; test/support/mcp-app-host.mjs), and fed with real tool results from the sandbox through the MCP
 * server: the 6-hour ride at resolution low and at medium with its summary, the same ride's summary alone, the
 * twelve-week training-load summary, and a plain list of activities; and on the sandbox's intervals.icu face, its
 * summary (intervals.icu's own fitness and fatigue, the morning signals), its list and the ride. Each test checks that what is drawn
 * matches the data (the number of points, the peaks' values in their labels, one bar per day and one row per
 * week, fitness recomputed from the daily loads equal to the answer's), that the view attempted no tool call,
 * and that no request left the page (every request is intercepted: only the host page itself is served).
 *
 * Screenshots at a phone's width (390 px) and a desktop's (1200 px) are kept in .cache/mcp-app-views/.
 * Without /usr/bin/chromium (`apt-get install chromium`, which .ci/run does) this suite fails in CI and is
 * skipped, saying so, elsewhere.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { chromium, type BrowserContext, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { appViews } from "../../mcp-adapter/apps/app-views.ts";
import type { IntervalsLoadAnswer, TrainingLoadAnswer } from "../../tools/training-load/training-load-answer.ts";
import { startInProcessMcp, type InProcessMcp } from "../support/in-process-mcp.ts";

const chromiumPath = "/usr/bin/chromium";
const available = existsSync(chromiumPath);
if (!available) {
  const message = `${chromiumPath} is missing: the browser checks of the MCP Apps views need Debian's chromium (apt-get install chromium; .ci/run installs it).`;
  if (process.env["CI"]) throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const screenshotDirectory = resolve(import.meta.dirname, "../../.cache/mcp-app-views");
const hostOrigin = "http://views-host.test";
const widths = { phone: 390, desktop: 1200 } as const;

type StreamObject = { type: string; data?: number[]; summary?: Record<string, unknown>; original_size: number; resolution: string };

let sandbox: RunningSandbox;
let mcp: InProcessMcp;
let client: Client;
/** The same server on the sandbox's intervals.icu face. */
let icuMcp: InProcessMcp;
let icuClient: Client;
let context: BrowserContext;
let profile: string;
let hostScript = "";
const html = new Map<string, string>();
/** Every request the pages made other than the host page itself: must stay empty. */
const escaped: string[] = [];
const results: Record<string, { args: Record<string, unknown>; result: CallToolResult }> = {};

async function call(
  name: string,
  args: Record<string, unknown>,
  on: Client = client,
): Promise<{ args: Record<string, unknown>; result: CallToolResult }> {
  const result = (await on.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result).slice(0, 300)).toBeFalsy();
  return { args, result };
}

function textOf(result: CallToolResult): string {
  const item = result.content[0];
  if (item?.type !== "text") throw new Error("expected a text result");
  return item.text;
}

beforeAll(async () => {
  if (!available) return;
  mkdirSync(screenshotDirectory, { recursive: true });
  sandbox = await startSandbox({ rotateRefreshTokens: false });
  mcp = await startInProcessMcp(sandbox);
  client = new Client({ name: "views-in-browser", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcp.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${mcp.authToken}` } } }),
  );
  for (const view of appViews) {
    const read = await client.readResource({ uri: view.uri });
    const item = read.contents[0];
    if (item === undefined || !("text" in item)) throw new Error(`${view.uri} is not a text resource`);
    html.set(view.name, item.text);
  }
  const listed = JSON.parse(textOf((await call("get_activities", { per_page: 200, fields: ["id", "name"] })).result)) as Array<{
    id: number;
    name: string;
  }>;
  const ride = listed.find((activity) => activity.name === "Peak to Peak big day");
  if (!ride) throw new Error("the sandbox's seed has no 6-hour ride");
  results["rideLow"] = await call("get_activity_streams", { id: ride.id, resolution: "low" });
  results["rideMedium"] = await call("get_activity_streams", { id: ride.id, resolution: "medium", summary: true });
  results["rideSummary"] = await call("get_activity_streams", { id: ride.id, summary: true });
  results["load"] = await call("get_activities", { summary: true });
  results["list"] = await call("get_activities", { per_page: 30 });

  icuMcp = await startInProcessMcp(sandbox, { log: "intervals.icu" });
  icuClient = new Client({ name: "views-in-browser", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await icuClient.connect(
    new StreamableHTTPClientTransport(new URL(icuMcp.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${icuMcp.authToken}` } },
    }),
  );
  const icuListed = JSON.parse(
    textOf((await call("get_activities", { oldest: "2026-10-01", fields: ["id", "name"] }, icuClient)).result),
  ) as Array<{ id: string; name?: string }>;
  const icuRide = icuListed.find((activity) => activity.name === "Peak to Peak big day");
  if (!icuRide) throw new Error("the sandbox's intervals.icu face has no 6-hour ride");
  results["icuLoad"] = await call("get_activities", { summary: true }, icuClient);
  results["icuList"] = await call("get_activities", {}, icuClient);
  results["icuRide"] = await call("get_activity_streams", { id: icuRide.id, resolution: "low" }, icuClient);

  const bundled = await build({
    entryPoints: [join(import.meta.dirname, "../support/mcp-app-host.mjs")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  hostScript = bundled.outputFiles[0]?.text ?? "";

  profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: widths.desktop, height: 900 },
  });
  // The host page is the only thing served; anything else a page asks for is recorded and refused.
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (url === `${hostOrigin}/`) {
      await route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><html><head><meta charset="utf-8"><title>Views host</title></head><body style="margin:0"></body><script>${hostScript}</script></html>`,
      });
      return;
    }
    escaped.push(url);
    await route.abort("blockedbyclient");
  });
  context.on("request", (request) => {
    if (request.url() !== `${hostOrigin}/`) escaped.push(request.url());
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await client?.close().catch(() => {});
  await mcp?.close();
  await icuClient?.close().catch(() => {});
  await icuMcp?.close();
  await sandbox?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

interface Shown {
  page: Page;
  view: Frame;
}

/** Opens the host at `width`, shows `viewName` with the call's arguments and result, and waits until it drew. */
async function show(
  viewName: string,
  input: { args: Record<string, unknown>; result: CallToolResult },
  width: number,
  ready: string,
  theme: "light" | "dark" = "light",
): Promise<Shown> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${hostOrigin}/`);
  const hostContext = {
    theme,
    locale: "en-GB",
    timeZone: "Europe/London",
    platform: width < 600 ? "mobile" : "desktop",
    displayMode: "inline",
    containerDimensions: { width, maxHeight: 6000 },
  };
  await page.evaluate(
    async (shown) => {
      await (globalThis as unknown as { showView: (input: unknown) => Promise<void> }).showView(shown);
    },
    { html: html.get(viewName), args: input.args, result: input.result, hostContext },
  );
  const view = page.frames().find((frame) => frame !== page.mainFrame());
  if (view === undefined) throw new Error("the view's frame is missing");
  await view.locator(ready).first().waitFor({ timeout: 15_000 });
  // The view reports its size and the host sizes the iframe: wait until the frame's height holds still.
  let height = -1;
  for (let stable = 0; stable < 3;) {
    await page.waitForTimeout(120);
    const now = await page.locator("iframe").evaluate((frame) => frame.getBoundingClientRect().height);
    stable = now === height && now > 200 ? stable + 1 : 0;
    height = now;
  }
  return { page, view };
}

async function shot(page: Page, name: string): Promise<void> {
  // A sandboxed view renders in a process of its own, which paints only what the viewport shows: make the
  // viewport as tall as the view first.
  const size = page.viewportSize() ?? { width: widths.desktop, height: 900 };
  const height = await page.locator("iframe").evaluate((frame) => Math.ceil(frame.getBoundingClientRect().height));
  await page.setViewportSize({ width: size.width, height: Math.max(200, height) });
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(screenshotDirectory, `${name}.png`) });
  await page.setViewportSize(size);
}

async function attempts(page: Page): Promise<{ toolCalls: unknown[]; messages: unknown[]; links: unknown[] }> {
  return page.evaluate(
    () => (globalThis as unknown as { viewAttempts: { toolCalls: unknown[]; messages: unknown[]; links: unknown[] } }).viewAttempts,
  );
}

async function pointsOf(view: Frame, series: string): Promise<number> {
  const lists = await view
    .locator(`g[data-series="${series}"] polyline`)
    .evaluateAll((lines) => lines.map((line) => line.getAttribute("points") ?? ""));
  return lists.reduce((sum, points) => sum + points.trim().split(/\s+/).filter(Boolean).length, 0);
}

/** 36.7, 36 (one decimal at most, as the view writes a speed) */
function oneDecimal(value: number): string {
  return Number(value.toFixed(1)).toLocaleString("en-US", { maximumFractionDigits: 1 });
}

/** 5:59:59 */
function clock(seconds: number): string {
  return [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60]
    .map((part, index) => (index === 0 ? String(part) : String(part).padStart(2, "0")))
    .join(":");
}

function streamsOf(name: string): StreamObject[] {
  return JSON.parse(textOf(results[name]!.result)) as StreamObject[];
}

async function closeQuietly(page: Page): Promise<void> {
  expect(await attempts(page)).toEqual({ toolCalls: [], messages: [], links: [] });
  await page.close();
}

describe.skipIf(!available)("the ride view in Chromium", () => {
  it("at resolution low: four panels of 100 points each over time, every peak labelled with its value", async () => {
    const streams = streamsOf("rideLow");
    const max = (type: string): number => Math.max(...(streams.find((stream) => stream.type === type)?.data ?? []));
    for (const [label, width] of Object.entries(widths)) {
      const { page, view } = await show("ride", results["rideLow"]!, width, "svg.ride-chart");
      expect(await view.locator("svg.ride-chart").getAttribute("data-samples")).toBe("100");
      for (const series of ["heartrate", "watts", "speed", "altitude"]) expect(await pointsOf(view, series), series).toBe(100);
      expect(await view.locator('g[data-peak="heartrate"] text').textContent()).toBe(`Max ${max("heartrate")} bpm`);
      expect(await view.locator('g[data-peak="watts"] text').textContent()).toBe(`Max ${max("watts")} W`);
      expect(await view.locator('g[data-peak="altitude"] text').textContent()).toBe(
        `Highest ${Math.round(max("altitude")).toLocaleString("en-US")} m`,
      );
      expect(await view.locator('g[data-peak="speed"] text').textContent()).toBe(`Max ${oneDecimal(max("velocity_smooth") * 3.6)} km/h`);
      // The heart-rate axis fits the data: above the peak, only the room its label needs (not a quarter of the panel).
      const heart = await view.locator('g[data-panel="heartrate"]').evaluate((panel) => {
        const plot = panel.querySelector("clipPath rect");
        const dot = panel.querySelector("g.peak circle");
        return {
          top: Number(plot?.getAttribute("y")),
          height: Number(plot?.getAttribute("height")),
          peak: Number(dot?.getAttribute("cy")),
        };
      });
      expect((heart.peak - heart.top) / heart.height).toBeLessThan(0.36);
      const numbers = await view.locator(".key-numbers").innerText();
      expect(numbers).toContain(`Duration\n${clock(max("time"))}`);
      expect(numbers).toContain(`Distance\n${(max("distance") / 1000).toFixed(1)} km`);
      expect(await view.locator(".subtitle").innerText()).toContain(
        `100 of ${streams[0]!.original_size.toLocaleString("en-US")} samples (resolution low)`,
      );
      expect(await view.locator(".note").innerText()).toContain('resolution "medium"');
      await shot(page, `ride-low-${label}`);
      await closeQuietly(page);
    }
  }, 90_000);

  it("reads every line at the pointer, and switches to distance and to pace without asking for anything", async () => {
    const { page, view } = await show("ride", results["rideLow"]!, widths.desktop, "svg.ride-chart");
    const surface = view.locator("svg.ride-chart rect.surface");
    const box = await surface.boundingBox();
    if (box === null) throw new Error("no chart surface");
    await page.mouse.move(box.x + box.width / 2, box.y + 40);
    const readout = await view.locator(".readout").innerText();
    expect(readout).toMatch(/^\d:\d\d:\d\d · Heart rate \d+ bpm · Power \d+ W · Speed [\d.]+ km\/h · Elevation [\d,]+ m$/);
    await view.getByRole("button", { name: "Distance" }).click();
    expect(await view.locator('g[data-axis="distance"] text').first().textContent()).toBe("0 km");
    await view.getByRole("button", { name: "Pace" }).click();
    expect(await view.locator('g[data-panel="pace"] .panel-title').textContent()).toBe("Pace (/km)");
    expect(await view.locator('g[data-peak="pace"] text').textContent()).toMatch(/^Fastest \d+:\d\d \/km$/);
    await shot(page, "ride-low-distance-pace-desktop");
    await closeQuietly(page);
  }, 90_000);

  it("at resolution medium with its summary: 1,000 points a panel and the summary's numbers", async () => {
    const streams = streamsOf("rideMedium");
    const summary = (type: string): Record<string, unknown> => streams.find((stream) => stream.type === type)?.summary ?? {};
    for (const [label, width] of Object.entries(widths)) {
      const { page, view } = await show("ride", results["rideMedium"]!, width, "svg.ride-chart", label === "desktop" ? "dark" : "light");
      for (const series of ["heartrate", "watts", "speed", "altitude"]) expect(await pointsOf(view, series), series).toBe(1000);
      expect(await view.locator('g[data-peak="heartrate"] text').textContent()).toBe(`Max ${String(summary("heartrate")["max"])} bpm`);
      const numbers = await view.locator(".key-numbers").innerText();
      expect(numbers).toContain(`Avg heart rate\n${Math.round(summary("heartrate")["mean"] as number)} bpm`);
      expect(numbers).toContain(`Weighted avg power\n${Math.round(summary("watts")["weighted_mean"] as number)} W`);
      expect(numbers).toContain(`Climbing\n${Math.round(summary("altitude")["ascent"] as number).toLocaleString("en-US")} m`);
      expect(numbers).toContain(`Best 20 min power\n${Math.round((summary("watts")["peak_means"] as Record<string, number>)["1200s"]!)} W`);
      await shot(page, `ride-medium-${label}${label === "desktop" ? "-dark" : ""}`);
      await closeQuietly(page);
    }
  }, 90_000);

  it("with the summary only: the numbers, and how to ask for a chart", async () => {
    const moving = streamsOf("rideSummary").find((stream) => stream.type === "moving")?.summary?.["moving_time"] as number;
    for (const [label, width] of Object.entries(widths)) {
      const { page, view } = await show("ride", results["rideSummary"]!, width, ".ask");
      expect(await view.locator("svg").count()).toBe(0);
      expect(await view.locator(".ask").innerText()).toContain('resolution "low"');
      expect(await view.locator(".key-numbers").innerText()).toContain(`Moving time\n${clock(moving)}`);
      await shot(page, `ride-summary-only-${label}`);
      await closeQuietly(page);
    }
  }, 90_000);
});

describe.skipIf(!available)("the load view in Chromium", () => {
  it("the twelve-week summary: one bar per day, fitness, fatigue and form recomputed from the loads as the answer has them, one row per week", async () => {
    const answer = JSON.parse(textOf(results["load"]!.result)) as TrainingLoadAnswer;
    for (const [label, width] of Object.entries(widths)) {
      const { page, view } = await show("load", results["load"]!, width, "svg.load-chart");
      expect(await view.locator('g[data-series="load"] rect').count()).toBe(answer.days.loads.length);
      const chart = view.locator("svg.load-chart");
      const numbers = await view.locator(".key-numbers").innerText();
      expect(Number(await chart.getAttribute("data-fitness"))).toBeCloseTo(answer.load.fitness, 1);
      expect(Number(await chart.getAttribute("data-fatigue"))).toBeCloseTo(answer.load.fatigue, 1);
      expect(Number(await view.locator("svg.form-chart").getAttribute("data-form"))).toBeCloseTo(answer.load.form, 1);
      expect(await pointsOf(view, "fitness")).toBe(answer.days.loads.length);
      // The lines start from the history's fitness, not from zero.
      const firstFitness = answer.trend.start.fitness + (answer.days.loads[0]! - answer.trend.start.fitness) / 42;
      expect(Number(await chart.getAttribute("data-fitness-first"))).toBeCloseTo(firstFitness, 1);
      expect(answer.trend.start.fitness).toBeGreaterThan(10);
      expect(await chart.locator(".axis-title").textContent()).toBe("Relative Effort per day");
      expect(numbers).toContain(`Ramp rate\n${answer.load.ramp_rate! > 0 ? "+" : "\u2212"}${Math.abs(answer.load.ramp_rate!).toFixed(1)}`);
      // Every week's totals stay inside the chart, at a phone's width too.
      const overflow = await view.locator("svg.weeks-chart").evaluate((svg) => {
        const right = Number(svg.getAttribute("width"));
        type Measured = { getBBox(): { x: number; width: number } };
        return [...svg.querySelectorAll(".week-total")].map((text) => {
          const box = (text as unknown as Measured).getBBox();
          return box.x + box.width - right;
        });
      });
      expect(Math.max(...overflow)).toBeLessThanOrEqual(0);
      // Each sport its own colour.
      const colours = await view
        .locator(".legend [data-sport] .swatch")
        .evaluateAll((items) => items.map((item) => item.getAttribute("style")));
      expect(new Set(colours).size).toBe(colours.length);
      expect(await view.locator("svg.weeks-chart g.week").count()).toBe(answer.weeks.length);
      expect(numbers).toContain(`Fitness (CTL)\n${answer.load.fitness.toFixed(1)}`);
      const sports = new Set(answer.weeks.flatMap((week) => Object.keys(week.sports)));
      expect(
        new Set(await view.locator(".legend [data-sport]").evaluateAll((items) => items.map((item) => item.getAttribute("data-sport")))),
      ).toEqual(sports);
      await shot(page, `load-summary-${label}`);
      await closeQuietly(page);
    }
  }, 90_000);

  it("a plain list: the listed activities by day", async () => {
    const listed = JSON.parse(textOf(results["list"]!.result)) as Array<{ start_date_local: string }>;
    const days = new Set(listed.map((activity) => activity.start_date_local.slice(0, 10)));
    for (const [label, width] of Object.entries(widths)) {
      const { page, view } = await show("load", results["list"]!, width, "svg.days-chart");
      expect(await view.locator("svg.days-chart rect.activity").count()).toBe(listed.length);
      expect(await view.locator(".day-list .day").count()).toBe(days.size);
      await shot(page, `load-list-${label}`);
      await closeQuietly(page);
    }
  }, 90_000);
});

describe.skipIf(!available)("the views on intervals.icu's answers", () => {
  it("the load view draws intervals.icu's summary: its loads, fitness and fatigue by intervals.icu's own recurrence, the morning signals", async () => {
    const answer = JSON.parse(textOf(results["icuLoad"]!.result)) as IntervalsLoadAnswer;
    for (const [label, width] of Object.entries(widths)) {
      const { page, view } = await show("load", results["icuLoad"]!, width, "svg.load-chart");
      expect(await view.locator('g[data-series="load"] rect').count()).toBe(answer.days.loads.length);
      const chart = view.locator("svg.load-chart");
      // The lines end on intervals.icu's own numbers of the last date, and start from its fitness the day before the window.
      expect(Number(await chart.getAttribute("data-fitness"))).toBeCloseTo(answer.load.fitness, 1);
      expect(Number(await chart.getAttribute("data-fatigue"))).toBeCloseTo(answer.load.fatigue, 1);
      expect(Number(await view.locator("svg.form-chart").getAttribute("data-form"))).toBeCloseTo(answer.load.form, 1);
      const firstFitness = answer.trend.start.fitness + (answer.days.loads[0]! - answer.trend.start.fitness) * (1 - Math.exp(-1 / 42));
      expect(Number(await chart.getAttribute("data-fitness-first"))).toBeCloseTo(firstFitness, 1);
      // intervals.icu's load, not Strava's Relative Effort.
      expect(await chart.locator(".axis-title").textContent()).toBe("training load per day");
      expect(await view.locator("body").innerText()).not.toContain("Relative Effort");
      expect(await view.locator(".subtitle").innerText()).toContain("intervals.icu's fitness and fatigue");
      const readiness = await view.locator(".key-numbers.readiness").innerText();
      const { hrv, restingHR } = answer.readiness_trend;
      expect(readiness).toContain(`HRV, 7-day mean\n${hrv.mean_7d!.toFixed(1)} ms`);
      expect(readiness).toContain(
        `usual ${hrv.mean_28d!.toFixed(1)} ± ${hrv.sd_28d!.toFixed(1)} ms · \u2212${Math.abs(hrv.difference_sd!).toFixed(1)} SD`,
      );
      expect(readiness).toContain(`Resting heart rate, 7-day mean\n${restingHR.mean_7d!.toFixed(1)} bpm`);
      expect(await view.locator("svg.weeks-chart g.week").count()).toBe(answer.weeks.length);
      const sports = new Set(answer.weeks.flatMap((week) => Object.keys(week.sports)));
      expect(
        new Set(await view.locator(".legend [data-sport]").evaluateAll((items) => items.map((item) => item.getAttribute("data-sport")))),
      ).toEqual(sports);
      await shot(page, `load-summary-intervals-${label}`);
      await closeQuietly(page);
    }
  }, 90_000);

  it("the load view draws intervals.icu's list by day, a Strava stub named as one", async () => {
    const listed = JSON.parse(textOf(results["icuList"]!.result)) as Array<{ start_date_local: string; source?: string }>;
    expect(listed.some((activity) => activity.source === "STRAVA")).toBe(true);
    const { page, view } = await show("load", results["icuList"]!, widths.phone, "svg.days-chart");
    expect(await view.locator("svg.days-chart rect.activity").count()).toBe(listed.length);
    expect(await view.locator(".day-list .day").count()).toBe(
      new Set(listed.map((activity) => activity.start_date_local.slice(0, 10))).size,
    );
    expect(await view.locator(".activity-name", { hasText: "From Strava (a stub on intervals.icu)" }).count()).toBe(
      listed.filter((activity) => activity.source === "STRAVA").length,
    );
    await shot(page, "load-list-intervals-phone");
    await closeQuietly(page);
  }, 90_000);

  it("the ride view draws intervals.icu's streams at resolution low: four panels of 100 points, the peaks labelled", async () => {
    const streams = JSON.parse(textOf(results["icuRide"]!.result)) as StreamObject[];
    const max = (type: string): number => Math.max(...(streams.find((stream) => stream.type === type)?.data ?? []));
    const { page, view } = await show("ride", results["icuRide"]!, widths.desktop, "svg.ride-chart");
    for (const series of ["heartrate", "watts", "speed", "altitude"]) expect(await pointsOf(view, series), series).toBe(100);
    expect(await view.locator('g[data-peak="heartrate"] text').textContent()).toBe(`Max ${max("heartrate")} bpm`);
    expect(await view.locator('g[data-peak="watts"] text').textContent()).toBe(`Max ${max("watts")} W`);
    expect(await view.locator(".key-numbers").innerText()).toContain(`Duration\n${clock(max("time"))}`);
    // Reduced by the server (intervals.icu's streams say nothing of their own count), and said so.
    expect(await view.locator(".subtitle").innerText()).toContain("100 samples (resolution low)");
    await shot(page, "ride-low-intervals-desktop");
    await closeQuietly(page);
  }, 90_000);
});

describe.skipIf(!available)("the views' script policy", () => {
  it("runs the view's own script, and no script or event handler put into the page after it", async () => {
    for (const view of appViews) {
      const { page, view: frame } = await show(
        view.name,
        view.name === "ride" ? results["rideLow"]! : results["load"]!,
        widths.desktop,
        "svg",
      );
      // What an injection into the view would try: an inline script element, and an inline event handler
      // (browser code, given as text: this file is compiled without the DOM's types).
      const ran = (await frame.evaluate(`(async () => {
        const script = document.createElement("script");
        script.textContent = "globalThis.injectedScriptRan = true;";
        document.body.append(script);
        const image = document.createElement("img");
        image.setAttribute("onerror", "globalThis.injectedHandlerRan = true;");
        image.src = "data:,not-an-image";
        document.body.append(image);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { script: globalThis.injectedScriptRan === true, handler: globalThis.injectedHandlerRan === true };
      })()`)) as { script: boolean; handler: boolean };
      expect(ran, view.name).toEqual({ script: false, handler: false });
      await closeQuietly(page);
    }
  }, 90_000);
});

describe.skipIf(!available)("the views' network", () => {
  it("no request left any page but the host page itself", () => {
    expect(escaped).toEqual([]);
  });
});
