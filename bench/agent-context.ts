/**
 * How much of a model's context the tools take for the questions a coach gets: each question replayed
 * as the tool calls a model makes for it, once with today's defaults (no new parameter) and once the
 * way the fitness-coaching skill says (fields, streams summary or low resolution, the training-load
 * summary), through the MCP
 * server over HTTP (in this process) against the sandbox. Per question: tool calls, upstream requests,
 * bytes and tokens of the results, and the largest single result. The load questions are asked again on the
 * sandbox's intervals.icu face, each on a fresh server (so the athlete's time zone, read once per process, counts).
 * And the skill's part a model reads before it acts (SKILL.md) is measured as each host reads it: the file the
 * OpenClaw host reads, the MCP prompt, and the MCP Skills extension's SKILL.md. Tokens are counted with js-tiktoken's
 * o200k_base encoding: Claude's tokenizer is not published, so the counts are a real BPE tokenizer's,
 * not Claude's own.
 *
 *   npx tsx bench/agent-context.ts            # prints Markdown tables for BENCHMARKS.md
 *
 * Run by hand; figures in BENCHMARKS.md. Nothing here is timed.
 */
import { readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getEncoding } from "js-tiktoken";
import { startSandbox } from "../sandbox/server.ts";
import { startInProcessMcp } from "../test/support/in-process-mcp.ts";
import { gpxTrack } from "../test/sandbox/activity-file-fixtures.ts";
import { benchSandboxOptions } from "./bench-sandbox-options.ts";

/** Claude Code's default cap on one MCP tool result (MAX_MCP_OUTPUT_TOKENS). */
const claudeCodeCapTokens = 25_000;
/** OpenClaw 2026.9.6 keeps at most this much of one tool result for a model with a 200k-token context. */
const openClawCapChars = 64_000;

type Call = { tool: string; args: Record<string, unknown> };
type Way = "defaults" | "skill";

interface Ids {
  todaysWorkout: number;
  ride: number;
  rideStart: number;
  runs: [number, number];
  now: number;
}

interface Question {
  name: string;
  calls(ids: Ids, way: Way): Call[];
  /** Calls whose arguments come from an earlier answer (an upload's id). */
  followUps?(answers: string[], way: Way): Call[];
}

const day = 86_400;
/** What the skill's Step 1 asks for when selecting an activity. */
const selectFields = ["id", "name", "sport_type", "start_date", "start_date_local", "distance", "elapsed_time"];
/** What the skill's Step 2 reads before drafting. */
const readFields = ["id", "name", "description", "sport_type", "distance", "start_date_local", "elapsed_time"];
const loadFields = [
  "id",
  "name",
  "sport_type",
  "start_date_local",
  "moving_time",
  "distance",
  "total_elevation_gain",
  "average_heartrate",
  "suffer_score",
  "kilojoules",
];
const rideWeek = (ids: Ids, way: Way): Call => ({
  tool: "get_activities",
  args: { after: ids.rideStart - 6 * day, before: ids.rideStart + day, ...(way === "skill" ? { fields: selectFields } : {}) },
});

/** The load questions on intervals.icu: the skill's way is the summary; without it, the weeks listed and the mornings read. */
const intervalsQuestions: Array<{ name: string; calls(way: Way, today: string): Call[] }> = [
  {
    name: "Am I overtraining? (intervals.icu)",
    calls: (way, today) =>
      way === "skill"
        ? [{ tool: "get_activities", args: { summary: true } }]
        : [
            { tool: "get_activities", args: { oldest: shiftDate(today, -83) } },
            { tool: "get_wellness", args: {} },
          ],
  },
  {
    name: "How did my last month go? (intervals.icu)",
    calls: (way, today) =>
      way === "skill"
        ? [{ tool: "get_activities", args: { summary: true } }]
        : [{ tool: "get_activities", args: { oldest: shiftDate(today, -30) } }],
  },
  {
    name: "How did my year go? (intervals.icu)",
    calls: (way, today) => [
      {
        tool: "get_activities",
        args: way === "skill" ? { summary: true, oldest: shiftDate(today, -365) } : { oldest: shiftDate(today, -365) },
      },
    ],
  },
];

function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const questions: Question[] = [
  {
    name: "Log today's workout (skill steps 1, 2 and 5)",
    calls: (ids, way) => [
      { tool: "get_activities", args: way === "skill" ? { per_page: 10, fields: selectFields } : { per_page: 10 } },
      { tool: "get_activity_by_id", args: way === "skill" ? { id: ids.todaysWorkout, fields: readFields } : { id: ids.todaysWorkout } },
      {
        tool: "update_activity",
        args: {
          id: ids.todaysWorkout,
          name: "Iron Temple | Back Squat + AMRAP",
          description: "Strength:\n- Back squat 5x5 @ 185\nScore/Notes:\n- Score: not given",
        },
      },
    ],
  },
  {
    name: "How did Saturday's big ride go?",
    calls: (ids, way) => [
      rideWeek(ids, way),
      way === "skill"
        ? {
            tool: "get_activity_by_id",
            args: {
              id: ids.ride,
              fields: [
                "name",
                "description",
                "distance",
                "moving_time",
                "elapsed_time",
                "total_elevation_gain",
                "average_heartrate",
                "max_heartrate",
                "average_watts",
                "weighted_average_watts",
                "kilojoules",
                "suffer_score",
                "laps",
              ],
            },
          }
        : { tool: "get_activity_by_id", args: { id: ids.ride } },
    ],
  },
  {
    name: "Did my heart rate drift on that ride?",
    calls: (ids, way) => [
      rideWeek(ids, way),
      { tool: "get_activity_streams", args: { id: ids.ride, keys: ["heartrate", "watts"], ...(way === "skill" ? { summary: true } : {}) } },
    ],
  },
  {
    name: "What were my power peaks on that ride?",
    calls: (ids, way) => [
      rideWeek(ids, way),
      way === "skill"
        ? { tool: "get_activity_streams", args: { id: ids.ride, keys: ["watts"], summary: true } }
        : { tool: "get_activity_streams", args: { id: ids.ride, keys: ["watts"] } },
    ],
  },
  {
    name: "Show the ride's heart rate and power over time",
    calls: (ids, way) => [
      rideWeek(ids, way),
      {
        tool: "get_activity_streams",
        args: { id: ids.ride, keys: ["heartrate", "watts", "altitude"], ...(way === "skill" ? { resolution: "low" } : {}) },
      },
    ],
  },
  {
    name: "How much did I train this week?",
    calls: (ids, way) => [
      { tool: "get_activities", args: { after: ids.now - 7 * day, ...(way === "skill" ? { fields: loadFields } : {}) } },
    ],
  },
  {
    // Without the summary a model lists the twelve weeks and adds them up itself.
    name: "Am I overtraining?",
    calls: (ids, way) => [
      { tool: "get_activities", args: way === "skill" ? { summary: true } : { after: ids.now - 84 * day, per_page: 200 } },
    ],
  },
  {
    name: "How did my last month go?",
    calls: (ids, way) => [
      { tool: "get_activities", args: way === "skill" ? { summary: true } : { after: ids.now - 31 * day, per_page: 200 } },
    ],
  },
  {
    // The longest window a summary takes: its request count is the figure to watch (pages, the FTP, the zones).
    name: "How did my year go?",
    calls: (ids, way) => [
      {
        tool: "get_activities",
        args: way === "skill" ? { summary: true, after: ids.now - 365 * day } : { after: ids.now - 365 * day, per_page: 200 },
      },
    ],
  },
  {
    name: "Compare my last two runs",
    calls: (ids, way) => {
      const detail = [
        "name",
        "start_date_local",
        "distance",
        "moving_time",
        "average_speed",
        "average_heartrate",
        "max_heartrate",
        "total_elevation_gain",
        "splits_metric",
      ];
      return [
        { tool: "get_activities", args: way === "skill" ? { per_page: 10, fields: selectFields } : { per_page: 10 } },
        ...ids.runs.map((id) => ({ tool: "get_activity_by_id", args: way === "skill" ? { id, fields: detail } : { id } })),
      ];
    },
  },
  {
    name: "My running and riding totals (stats)",
    calls: () => [{ tool: "get_athlete_stats", args: {} }],
  },
  {
    name: "Time in heart-rate zones on the ride",
    calls: (ids, way) => [rideWeek(ids, way), { tool: "get_activity_zones", args: { id: ids.ride } }],
  },
  {
    name: "Upload this GPX and check it went through",
    calls: (ids, way) => [
      {
        tool: "create_upload",
        args: {
          // A different morning per way, so the second upload is not a duplicate of the first.
          file: Buffer.from(
            gpxTrack({ startMs: (ids.now - (way === "skill" ? 2 : 3) * day) * 1000, points: 360, name: "Morning Run" }),
          ).toString("base64"),
          data_type: "gpx",
        },
      },
    ],
    followUps: (answers) => {
      const upload = JSON.parse(answers[0] ?? "{}") as { id?: number };
      return [{ tool: "get_upload", args: { id: upload.id } }];
    },
  },
];

interface Row {
  question: string;
  way: Way;
  calls: number;
  upstream: number;
  bytes: number;
  tokens: number;
  largestTokens: number;
  largestChars: number;
  errors: number;
}

const encoding = getEncoding("o200k_base");
const tokens = (text: string): number => encoding.encode(text).length;

const sandbox = await startSandbox(benchSandboxOptions);
const mcp = await startInProcessMcp(sandbox);
const client = new Client({ name: "agent-context-bench", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(mcp.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${mcp.authToken}` } } }),
);

try {
  const ids = await findIds();
  const listText = JSON.stringify(await client.listTools());
  const rows: Row[] = [];
  for (const question of questions) {
    for (const way of ["defaults", "skill"] as const) {
      const before = sandbox.counters().apiRequests;
      const texts: string[] = [];
      let errors = 0;
      const run = async (calls: Call[]): Promise<void> => {
        for (const call of calls) {
          const result = (await client.callTool({ name: call.tool, arguments: call.args })) as CallToolResult;
          const item = result.content[0];
          const text = item?.type === "text" ? item.text : "";
          if (result.isError) errors++;
          texts.push(text);
        }
      };
      await run(question.calls(ids, way));
      if (question.followUps) await run(question.followUps(texts, way));
      const counts = texts.map(tokens);
      rows.push({
        question: question.name,
        way,
        calls: texts.length,
        upstream: sandbox.counters().apiRequests - before,
        bytes: texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
        tokens: counts.reduce((sum, count) => sum + count, 0),
        largestTokens: Math.max(...counts),
        largestChars: Math.max(...texts.map((text) => text.length)),
        errors,
      });
    }
  }
  const singles: Array<[string, string]> = [];
  for (const [label, call] of singleCalls(ids)) {
    const result = (await client.callTool({ name: call.tool, arguments: call.args })) as CallToolResult;
    const item = result.content[0];
    singles.push([label, item?.type === "text" ? item.text : ""]);
  }
  rows.push(...(await intervalsRows()));
  const skill = await skillAsRead();
  print(rows, listText, singles, skill);
} finally {
  await client.close();
  await mcp.close();
  await sandbox.close();
}

/** The intervals.icu questions, each way on a server of its own (a fresh process's costs, its time zone read included). */
async function intervalsRows(): Promise<Row[]> {
  const rows: Row[] = [];
  const intervalsRequests = (): number =>
    Object.entries(sandbox.counters().byRoute)
      .filter(([route]) => route.startsWith("intervals.icu "))
      .reduce((total, [, count]) => total + count, 0);
  for (const question of intervalsQuestions) {
    for (const way of ["defaults", "skill"] as const) {
      const server = await startInProcessMcp(sandbox, { log: "intervals.icu" });
      const icu = new Client({ name: "agent-context-bench-icu", version: "1.0.0" });
      await icu.connect(
        new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
          requestInit: { headers: { authorization: `Bearer ${server.authToken}` } },
        }),
      );
      try {
        const before = intervalsRequests();
        const texts: string[] = [];
        let errors = 0;
        const today = new Date().toLocaleDateString("en-CA", { timeZone: "America/Denver" });
        for (const call of question.calls(way, today)) {
          const result = (await icu.callTool({ name: call.tool, arguments: call.args })) as CallToolResult;
          const item = result.content[0];
          if (result.isError) errors++;
          texts.push(item?.type === "text" ? item.text : "");
        }
        const counts = texts.map(tokens);
        rows.push({
          question: question.name,
          way,
          calls: texts.length,
          upstream: intervalsRequests() - before,
          bytes: texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
          tokens: counts.reduce((sum, count) => sum + count, 0),
          largestTokens: Math.max(...counts),
          largestChars: Math.max(...texts.map((text) => text.length)),
          errors,
        });
      } finally {
        await icu.close();
        await server.close();
      }
    }
  }
  return rows;
}

interface SkillRead {
  label: string;
  chars: number;
  tokens: number;
}

/**
 * The skill as each host gives it to a model: SKILL.md as the OpenClaw host reads it (the file, frontmatter
 * included), the MCP prompt without a request, the MCP Skills extension's SKILL.md; then each file it names, read
 * when a task needs it (the host's file; the MCP resource).
 */
async function skillAsRead(): Promise<SkillRead[]> {
  const measured = (label: string, text: string): SkillRead => ({ label, chars: text.length, tokens: tokens(text) });
  const folder = new URL("../skills/fitness-coaching/", import.meta.url);
  const prompt = await client.getPrompt({ name: "fitness-coaching" });
  const message = prompt.messages[0]?.content;
  const readText = async (uri: string): Promise<string> => {
    const item = (await client.readResource({ uri })).contents[0];
    return item !== undefined && "text" in item ? item.text : "";
  };
  const reads: SkillRead[] = [
    measured("SKILL.md, as the OpenClaw host reads it", readFileSync(new URL("SKILL.md", folder), "utf8")),
    measured("the MCP prompt `fitness-coaching` (no request)", message?.type === "text" ? message.text : ""),
    measured("the MCP Skills extension's SKILL.md", await readText("skill://fitness-coaching/SKILL.md")),
  ];
  for (const path of ["logging.md", "training-load.md", "wellness.md", "activity-data.md"]) {
    reads.push(measured(`${path}, the host's file`, readFileSync(new URL(path, folder), "utf8")));
    reads.push(measured(`${path}, the MCP resource`, await readText(`skill://fitness-coaching/${path}`)));
  }
  return reads;
}

/** Single answers, for the sizes the issue measured and each resolution of every stream. */
function singleCalls(ids: Ids): Array<[string, Call]> {
  const streams = (args: Record<string, unknown>): Call => ({ tool: "get_activity_streams", args: { id: ids.ride, ...args } });
  return [
    ["`get_activities` `per_page` 10", { tool: "get_activities", args: { per_page: 10 } }],
    ["the same with the skill's `fields`", { tool: "get_activities", args: { per_page: 10, fields: selectFields } }],
    ["`get_activity_by_id`, the 6-hour ride", { tool: "get_activity_by_id", args: { id: ids.ride } }],
    ["the same with `include_all_efforts: true`", { tool: "get_activity_by_id", args: { id: ids.ride, include_all_efforts: true } }],
    ["`get_activity_streams`, the ride, all keys", streams({})],
    ["the same, `heartrate` and `watts`", streams({ keys: ["heartrate", "watts"] })],
    ['all keys, `resolution: "high"`', streams({ resolution: "high" })],
    ['all keys, `resolution: "medium"`', streams({ resolution: "medium" })],
    ['all keys, `resolution: "low"`', streams({ resolution: "low" })],
    ["all keys, `summary: true`", streams({ summary: true })],
    ['`heartrate` and `watts`, `resolution: "medium"`', streams({ keys: ["heartrate", "watts"], resolution: "medium" })],
    ["`get_activities`, twelve weeks, `per_page` 200", { tool: "get_activities", args: { after: ids.now - 84 * day, per_page: 200 } }],
    ["the same with the load `fields`", { tool: "get_activities", args: { after: ids.now - 84 * day, per_page: 200, fields: loadFields } }],
    ["`get_activities` `summary: true` (twelve weeks)", { tool: "get_activities", args: { summary: true } }],
  ];
}

/** The activities the questions are about, read from the sandbox directly (not counted). */
async function findIds(): Promise<Ids> {
  const answer = (await client.callTool({
    name: "get_activities",
    arguments: { per_page: 200, fields: ["id", "name", "sport_type", "start_date"] },
  })) as CallToolResult;
  const item = answer.content[0];
  const list = JSON.parse(item?.type === "text" ? item.text : "[]") as Array<{
    id: number;
    name: string;
    sport_type: string;
    start_date: string;
  }>;
  const ride = list.find((activity) => activity.name === "Peak to Peak big day");
  const runs = list.filter((activity) => activity.sport_type === "Run");
  const workout = list.find((activity) => activity.sport_type === "WeightTraining");
  if (!ride || runs.length < 2 || !workout) throw new Error("the sandbox's seed lacks the long ride, two runs or today's gym session");
  return {
    todaysWorkout: workout.id,
    ride: ride.id,
    rideStart: Math.floor(Date.parse(ride.start_date) / 1000),
    runs: [runs[0]!.id, runs[1]!.id],
    now: Math.floor(Date.now() / 1000),
  };
}

function print(rows: Row[], listText: string, singles: Array<[string, string]>, skill: SkillRead[]): void {
  const n = (value: number): string => value.toLocaleString("en-US");
  console.log(`Machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
  console.log(
    `Tokenizer: js-tiktoken o200k_base. Caps: Claude Code ${n(claudeCodeCapTokens)} tokens per result; OpenClaw ${n(openClawCapChars)} characters (200k-token models).\n`,
  );
  console.log(`tools/list: ${n(Buffer.byteLength(listText))} bytes, ${n(tokens(listText))} tokens\n`);
  console.log("| Question | Way | Tool calls | Upstream requests | Bytes | Tokens | Largest result (tokens) | Largest result (chars) |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) {
    const flags = [
      row.largestTokens > claudeCodeCapTokens ? "over Claude Code's cap" : "",
      row.largestChars > openClawCapChars ? "over OpenClaw's cap" : "",
      row.errors ? `${row.errors} error result(s)` : "",
    ].filter(Boolean);
    console.log(
      `| ${row.way === "defaults" ? row.question : ""} | ${row.way === "defaults" ? "today's defaults" : "the skill's way"} | ${row.calls} | ${row.upstream} | ${n(row.bytes)} | ${n(row.tokens)} | ${n(row.largestTokens)}${flags.length ? ` (${flags.join(", ")})` : ""} | ${n(row.largestChars)} |`,
    );
  }
  console.log("\n| One answer | Bytes | Tokens |");
  console.log("|---|---:|---:|");
  for (const [label, text] of singles) console.log(`| ${label} | ${n(Buffer.byteLength(text))} | ${n(tokens(text))} |`);
  console.log("\n| The skill, as read | Characters | Tokens |");
  console.log("|---|---:|---:|");
  for (const read of skill) console.log(`| ${read.label} | ${n(read.chars)} | ${n(read.tokens)} |`);
  const alwaysRead = skill.slice(0, 3);
  const skillRows = rows.filter((row) => row.way === "skill");
  const drift = skillRows.find((row) => row.question.startsWith("Did my heart rate drift"));
  const overtraining = skillRows.find((row) => row.question === "Am I overtraining?");
  const overtrainingIcu = skillRows.find((row) => row.question === "Am I overtraining? (intervals.icu)");
  console.log(
    `\nTargets (the skill's way): every result under 25,000 tokens: ${skillRows.every((row) => row.largestTokens < 25_000) ? "met" : "NOT met"}; ` +
      `every question under 30,000 tokens: ${skillRows.every((row) => row.tokens < 30_000) ? "met" : "NOT met"}; ` +
      `heart-rate drift under 5,000: ${drift && drift.tokens < 5_000 ? `met (${n(drift.tokens)})` : "NOT met"}; ` +
      `"Am I overtraining?" at most 3,000 tokens and 3 upstream requests: ${overtraining && overtraining.tokens <= 3_000 && overtraining.upstream <= 3 ? `met (${n(overtraining.tokens)}, ${overtraining.upstream})` : "NOT met"}; ` +
      `on intervals.icu: ${overtrainingIcu && overtrainingIcu.tokens <= 3_000 && overtrainingIcu.upstream <= 3 ? `met (${n(overtrainingIcu.tokens)}, ${overtrainingIcu.upstream})` : "NOT met"}; ` +
      `the skill's always-read part at most 1,500 tokens and 6,000 characters in both hosts: ${alwaysRead.every((read) => read.tokens <= 1_500 && read.chars <= 6_000) ? `met (${alwaysRead.map((read) => `${n(read.tokens)} tokens, ${n(read.chars)} characters`).join("; ")})` : "NOT met"}.`,
  );
}
