/**
 * The checks of the agent-sized answer parameters (`fields`, `include_all_efforts`, streams
 * `resolution` and `summary`), written once and run through each way in: the core, the MCP server
 * over /mcp, and the plugin. Each front end supplies how to call a tool; the sandbox it runs against
 * supplies Strava's own answers to compare with and counts the requests that reach it.
 */
import { expect } from "vitest";
import type { RunningSandbox } from "../../sandbox/server.ts";
import { resolutionLimits, type Resolution } from "../../tools/streams/stream-reduction.ts";

export interface CallOutcome {
  text: string;
  isError: boolean;
}

export interface AnswerContext {
  /** Calls the tool by its table name (the plugin adds its prefix itself). */
  call(tool: string, args: Record<string, unknown>): Promise<CallOutcome>;
  sandbox: RunningSandbox;
  /** Strava's (the sandbox's) own answer to a GET, with a token of its own. */
  upstream(pathAndQuery: string): Promise<string>;
}

/** An access token of the test's own: the sandbox must not rotate refresh tokens (it returns the same token then). */
export async function upstreamReader(sandbox: RunningSandbox): Promise<(pathAndQuery: string) => Promise<string>> {
  const answer = await fetch(sandbox.tokenUrl, {
    method: "POST",
    body: new URLSearchParams({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      grant_type: "refresh_token",
      refresh_token: sandbox.refreshToken(),
    }),
  });
  const { access_token: token } = (await answer.json()) as { access_token: string };
  return async (pathAndQuery) => {
    const response = await fetch(`${sandbox.apiBase}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status, pathAndQuery).toBe(200);
    return response.text();
  };
}

/** The seed's 6-hour ride (21,600 samples per stream). */
async function longRideId(context: AnswerContext): Promise<number> {
  const list = JSON.parse(await context.upstream("/athlete/activities?per_page=200")) as Array<{ id: number; name: string }>;
  const ride = list.find((activity) => activity.name === "Peak to Peak big day");
  expect(ride, "the seed has its 6-hour ride").toBeDefined();
  return ride!.id;
}

function ok(outcome: CallOutcome, what: string): unknown {
  expect(outcome.isError, `${what}: ${outcome.text.slice(0, 300)}`).toBe(false);
  return JSON.parse(outcome.text);
}

/** Every digit string of an id above 2^53 in a JSON text. */
function bigIds(text: string): string[] {
  return [...text.matchAll(/"id":(\d{17,})/g)].map((match) => match[1]!);
}

type StreamObject = {
  type: string;
  data?: unknown[];
  summary?: Record<string, unknown>;
  series_type: string;
  original_size: number;
  resolution: string;
};

async function fullStreams(context: AnswerContext, id: number, keys: readonly string[]): Promise<Map<string, unknown[]>> {
  const keyed = JSON.parse(await context.upstream(`/activities/${id}/streams?keys=${keys.join(",")}&key_by_type=true`)) as Record<
    string,
    { data: unknown[] }
  >;
  return new Map(Object.entries(keyed).map(([type, stream]) => [type, stream.data]));
}

const numbersOf = (values: readonly unknown[]): number[] => values.filter((value): value is number => typeof value === "number");
const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/** `actual` is `expected` rounded to `digits` decimals. */
function roundedFrom(actual: unknown, expected: number, digits: number, what: string): void {
  expect(typeof actual, what).toBe("number");
  expect(Math.abs((actual as number) - expected), what).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-9);
}

export const agentSizedAnswerChecks: ReadonlyArray<readonly [string, (context: AnswerContext) => Promise<void>]> = [
  [
    "get_activities with fields keeps only those fields of each activity, in Strava's order, with Strava's values",
    async (context) => {
      const full = JSON.parse(await context.upstream("/athlete/activities?per_page=10")) as Array<Record<string, unknown>>;
      const fields = ["start_date_local", "id", "name", "sport_type", "distance", "average_heartrate"];
      const projected = ok(await context.call("get_activities", { per_page: 10, fields }), "get_activities") as Array<
        Record<string, unknown>
      >;
      expect(projected).toHaveLength(full.length);
      projected.forEach((item, index) => {
        const source = full[index]!;
        expect(Object.keys(item)).toEqual(Object.keys(source).filter((key) => fields.includes(key)));
        for (const key of Object.keys(item)) expect(item[key]).toEqual(source[key]);
      });
    },
  ],
  [
    "get_activity_by_id with fields keeps segment-effort ids above 2^53 exact",
    async (context) => {
      const id = await longRideId(context);
      const raw = await context.upstream(`/activities/${id}`);
      const ids = bigIds(raw);
      expect(ids.length).toBeGreaterThan(0);
      const outcome = await context.call("get_activity_by_id", { id, fields: ["id", "name", "segment_efforts"] });
      const projected = ok(outcome, "get_activity_by_id") as Record<string, unknown>;
      expect(Object.keys(projected)).toEqual(["name", "id", "segment_efforts"]);
      expect(bigIds(outcome.text)).toEqual(ids);
      // The projected efforts are Strava's, byte for byte.
      const efforts = /"segment_efforts":(\[.*?\]),"splits_metric"/.exec(raw)?.[1];
      expect(efforts).toBeDefined();
      expect(outcome.text).toContain(`"segment_efforts":${efforts}`);
    },
  ],
  [
    "get_club_activities with fields keeps only those fields",
    async (context) => {
      const items = ok(
        await context.call("get_club_activities", { id: 231_407, per_page: 5, fields: ["name", "distance"] }),
        "get_club_activities",
      ) as Array<Record<string, unknown>>;
      expect(items).toHaveLength(5);
      for (const item of items) expect(Object.keys(item)).toEqual(["name", "distance"]);
    },
  ],
  [
    "include_all_efforts: true adds the efforts Strava hides; false and absent give Strava's default answer",
    async (context) => {
      const id = await longRideId(context);
      const shown = await context.upstream(`/activities/${id}`);
      const withAll = await context.call("get_activity_by_id", { id, include_all_efforts: true });
      expect(withAll.text).toBe(await context.upstream(`/activities/${id}?include_all_efforts=true`));
      const all = (ok(withAll, "include_all_efforts true") as { segment_efforts: Array<{ hidden: boolean }> }).segment_efforts;
      const hidden = all.filter((effort) => effort.hidden);
      expect(hidden.length).toBeGreaterThan(0);
      expect(all.length - hidden.length).toBe((JSON.parse(shown) as { segment_efforts: unknown[] }).segment_efforts.length);
      expect(bigIds(withAll.text).length).toBe(bigIds(shown).length + hidden.length);
      expect((await context.call("get_activity_by_id", { id, include_all_efforts: false })).text).toBe(shown);
      expect((await context.call("get_activity_by_id", { id })).text).toBe(shown);
    },
  ],
  ...(Object.keys(resolutionLimits) as Resolution[]).map(
    (level) =>
      [
        `get_activity_streams resolution ${level}: at most ${resolutionLimits[level]} samples and close to it, aligned instants, first, last, highs and lows kept`,
        async (context: AnswerContext) => {
          const id = await longRideId(context);
          const keys = ["heartrate", "watts", "altitude", "latlng", "moving", "cadence"];
          const full = await fullStreams(context, id, ["time", ...keys]);
          const outcome = await context.call("get_activity_streams", { id, keys, resolution: level });
          const streams = ok(outcome, `resolution ${level}`) as StreamObject[];
          const limit = resolutionLimits[level];
          expect(streams.map((stream) => stream.type).sort()).toEqual([...full.keys()].sort());
          const time = streams.find((stream) => stream.type === "time")!.data as number[];
          const fullTime = full.get("time") as number[];
          const indexAt = new Map(fullTime.map((seconds, index) => [seconds, index]));
          expect(time.length).toBeLessThanOrEqual(limit);
          expect(time.length).toBeGreaterThanOrEqual(limit * 0.95);
          expect(time[0]).toBe(fullTime[0]);
          expect(time.at(-1)).toBe(fullTime.at(-1));
          for (const stream of streams) {
            expect(stream.resolution).toBe(level);
            expect(stream.original_size).toBe(fullTime.length);
            const data = stream.data!;
            const source = full.get(stream.type)!;
            // Aligned: the k-th kept sample of every stream is the sample recorded at time[k].
            expect(data).toHaveLength(time.length);
            data.forEach((value, k) => expect(value, `${stream.type}[${k}]`).toEqual(source[indexAt.get(time[k]!)!]));
            if (typeof source[0] === "number") {
              expect(Math.max(...numbersOf(data)), `${stream.type} max`).toBe(Math.max(...numbersOf(source)));
              expect(Math.min(...numbersOf(data)), `${stream.type} min`).toBe(Math.min(...numbersOf(source)));
            }
          }
        },
      ] as const,
  ),
  [
    "get_activity_streams summary: values equal those computed from every sample, in a few kilobytes",
    async (context) => {
      const id = await longRideId(context);
      const keys = ["heartrate", "watts", "moving", "latlng", "altitude", "distance"];
      const full = await fullStreams(context, id, ["time", ...keys]);
      const outcome = await context.call("get_activity_streams", { id, keys, summary: true });
      expect(outcome.text.length).toBeLessThan(4_000);
      const streams = ok(outcome, "summary") as StreamObject[];
      for (const stream of streams) {
        expect(stream.data).toBeUndefined();
        const source = full.get(stream.type)!;
        const summary = stream.summary!;
        const half = Math.floor(source.length / 2);
        if (stream.type === "latlng") {
          const points = source as Array<[number, number]>;
          expect(summary["min"]).toEqual([Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1]))]);
          expect(summary["max"]).toEqual([Math.max(...points.map((p) => p[0])), Math.max(...points.map((p) => p[1]))]);
          expect(summary["start"]).toEqual(points[0]);
          expect(summary["end"]).toEqual(points.at(-1));
          continue;
        }
        if (stream.type === "moving") {
          const flags = source as boolean[];
          roundedFrom(summary["mean"], flags.filter(Boolean).length / flags.length, 4, "moving share");
          roundedFrom(summary["first_half_mean"], flags.slice(0, half).filter(Boolean).length / half, 4, "moving share, first half");
          expect(summary["moving_time"]).toBe(flags.filter(Boolean).length);
          continue;
        }
        const values = numbersOf(source);
        expect(summary["min"]).toBe(Math.min(...values));
        expect(summary["max"]).toBe(Math.max(...values));
        roundedFrom(summary["mean"], mean(values), 2, `${stream.type} mean`);
        roundedFrom(summary["first_half_mean"], mean(values.slice(0, half)), 2, `${stream.type} first half`);
        roundedFrom(summary["second_half_mean"], mean(values.slice(half)), 2, `${stream.type} second half`);
        if (stream.type === "watts" || stream.type === "heartrate") {
          // Best one-minute mean, by brute force over the 1 Hz samples.
          let best = -Infinity;
          for (let start = 0; start + 60 <= values.length; start++) best = Math.max(best, mean(values.slice(start, start + 60)));
          roundedFrom((summary["peak_means"] as Record<string, number>)["60s"], best, 1, `${stream.type} best minute`);
        }
        if (stream.type === "distance") roundedFrom(summary["total"], values.at(-1)! - values[0]!, 2, "distance total");
      }
    },
  ],
  [
    "bad values are rejected before the network, naming the field",
    async (context) => {
      const before = context.sandbox.counters().apiRequests;
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ["get_activities", { fields: ["name", "heart_rate"] }, '"heart_rate"'],
        ["get_activities", { fields: "name" }, "fields"],
        ["get_activities", { fields: [] }, "fields"],
        ["get_activity_by_id", { id: 1, fields: ["map.polyline"] }, "fields"],
        ["get_activity_by_id", { id: 1, include_all_efforts: "yes" }, "include_all_efforts"],
        ["get_club_activities", { id: 231_407, fields: ["id"] }, '"id"'],
        ["get_activity_streams", { id: 1, resolution: "ultra" }, "resolution"],
        ["get_activity_streams", { id: 1, summary: "true" }, "summary"],
      ];
      for (const [tool, args, named] of cases) {
        const outcome = await context.call(tool, args);
        expect(outcome.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
        expect(outcome.text).toMatch(/^Error: /);
        expect(outcome.text, `${tool} ${JSON.stringify(args)}`).toContain(named);
      }
      expect(context.sandbox.counters().apiRequests - before).toBe(0);
    },
  ],
];
