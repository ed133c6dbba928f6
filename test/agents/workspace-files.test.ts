// The coach's workspace files and memory templates carry the coaching agent's rules.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { toolTable } from "../../tools/table.ts";
import { intervalsToolTable } from "../../tools/intervals-icu/table.ts";
import { loadFragmentTemplate } from "../../scripts/setup-coach/fragment.ts";
import { COACH_WORKSPACE_FILES } from "../../scripts/setup-coach/workspace-files.ts";

const repoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const agents = repoFile("agents/coach/workspace/AGENTS.md");
const soul = repoFile("agents/coach/workspace/SOUL.md");
const identity = repoFile("agents/coach/workspace/IDENTITY.md");
const user = repoFile("agents/coach/workspace/USER.md");
const memory = repoFile("memory-templates/MEMORY.md");
const dailyNote = repoFile("memory-templates/memory/YYYY-MM-DD.md");

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  expect(start, `## ${heading}`).toBeGreaterThanOrEqual(0);
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe("AGENTS.md", () => {
  it("reads the rules files, MEMORY.md and the last 3 to 5 daily notes at session start", () => {
    const start = section(agents, "Session start");
    expect(start).toMatch(/Read the rules files/);
    expect(start).toMatch(/Read `MEMORY.md`/);
    expect(start).toMatch(/last 3 to 5 daily notes in `memory\/`/);
  });

  it("writes daily notes after each update or coaching conversation and consolidates weekly", () => {
    expect(section(agents, "Memory")).toMatch(/after each activity update and after\s+each coaching conversation/);
    const weekly = section(agents, "Weekly consolidation");
    expect(weekly).toMatch(/Once a week/);
    expect(weekly).toMatch(/`MEMORY.md`/);
    expect(weekly).toMatch(/Last consolidated:/);
  });

  it("confirms before updating, never invents numbers, and frames nutrition and risk", () => {
    expect(agents).toMatch(/Every write to the log needs the athlete's yes to the proposal you showed/);
    expect(agents).toMatch(
      /Send the proposal as a\s+reply of its own \(text beside a tool call never reaches the athlete as a message\), wait for a\s+clear yes/,
    );
    expect(agents).toMatch(/By default the host then holds the call/);
    expect(agents).toMatch(/Never invent weights, reps, times, scores, distances or nutrition data/);
    expect(agents).toMatch(/comes from an AI coach, not a\s+registered dietitian/);
    expect(agents).toMatch(/\*\*Overtraining and injury risk:\*\*/);
    expect(agents).toMatch(/`Flags`/);
    expect(agents).toMatch(/`fitness-coaching` skill/);
  });

  it("flags overtraining from the training-load summary with a coach's thresholds, quoting the numbers as rules of thumb", () => {
    const rules = section(agents, "Coaching rules");
    const risk = rules.slice(rules.indexOf("**Overtraining and injury risk:**"), rules.indexOf("**Scope:**"));
    expect(risk).toMatch(/`fitness_get_activities` with `\{"summary": true\}`/);
    expect(risk).toMatch(/`load\.acute_chronic_ratio` above about 1\.5/);
    expect(risk).toMatch(/more than 10 to 30\s+percent above the week before/);
    expect(risk).toMatch(/`load\.monotony` above about 2/);
    // The rules that run over days or weeks are read from the answer's trend and ramp rate.
    expect(risk).toMatch(/`load\.ramp_rate` \(fitness gained over the last 7 days\) above about 8/);
    expect(risk).toMatch(/`trend\.form` holds form for\s+each of the last 28 days/);
    expect(risk).toMatch(/count the values below -30 at its end, in a row,\s+and flag 8 or more/);
    // With the athlete's mornings (intervals.icu), HRV against their usual, as the skill's wellness.md says.
    expect(risk).toMatch(
      /when the answer has `readiness_trend`[\s\S]*`readiness_trend\.hrv\.difference_sd` at -0\.5 or below with `skipped_7d` 4 or\s+fewer/,
    );
    expect(risk).toMatch(/`restingHR` up and `sleepSecs` down beside it \(0\.5 or more the wrong way\) as signs, not flags of\s+their own/);
    expect(risk).toMatch(/Without `readiness_trend`\s+\(Strava has no wellness\), ask how they sleep instead of guessing/);
    expect(risk).toMatch(/Quote the numbers you rely on/);
    expect(risk).toMatch(/rules of thumb, not a\s+diagnosis/);
    const weekly = section(agents, "Weekly consolidation");
    expect(weekly).toMatch(/`fitness_get_activities` with `\{"summary": true\}`/);
    expect(weekly).toMatch(/call no fitness tool but that one summary/);
  });

  it("has a ## Tools section listing exactly what is and is not available, on either log", () => {
    const tools = section(agents, "Tools");
    for (const tool of [...toolTable, ...intervalsToolTable]) expect(tools).toContain(`\`fitness_${tool.name}\``);
    expect(tools).toMatch(
      /on Strava the 11 below;\s+on intervals\.icu all but `fitness_get_athlete_stats`, `fitness_get_club_activities` and\s+`fitness_get_upload`, and `fitness_get_wellness` besides/,
    );
    const notOnIntervals = toolTable.filter((tool) => !intervalsToolTable.some((other) => other.name === tool.name));
    expect(notOnIntervals.map((tool) => tool.name).sort()).toEqual(["get_athlete_stats", "get_club_activities", "get_upload"]);
    expect(intervalsToolTable.filter((tool) => !toolTable.some((other) => other.name === tool.name)).map((tool) => tool.name)).toEqual([
      "get_wellness",
    ]);
    for (const tool of ["read", "write", "web_fetch", "web_search"]) expect(tools).toContain(`\`${tool}\``);
    expect(tools).toMatch(/`write`: only for workspace memory files/);
    const unavailable = tools.slice(tools.indexOf("What you do not have"));
    for (const missing of ["`exec`", "browser", "canvas", "messaging tools"]) expect(unavailable).toContain(missing);
  });

  it("agrees with the fragment's tool policy (the same tools allowed)", () => {
    const entry = Object.values(
      (loadFragmentTemplate()["agents"] as { entries: Record<string, { tools: { alsoAllow: string[] } }> }).entries,
    )[0];
    expect(entry?.tools.alsoAllow).toEqual(["fitness", "read", "write", "web_fetch", "web_search"]);
  });
});

describe("SOUL.md, IDENTITY.md, USER.md", () => {
  it("SOUL.md keeps the casual persona out of platform writes", () => {
    expect(soul).toMatch(/Casual and warm/);
    expect(soul).toMatch(/Titles and descriptions you write to the log follow\s+the `fitness-coaching` skill's format/);
  });

  it("IDENTITY.md matches the agent identity in the host config fragment", () => {
    const entry = Object.values(
      (loadFragmentTemplate()["agents"] as { entries: Record<string, { identity: Record<string, string> }> }).entries,
    )[0];
    const field = (label: string) => new RegExp(`^- \\*\\*${label}:\\*\\* (.+)$`, "m").exec(identity)?.[1];
    expect(field("Name")).toBe(entry?.identity["name"]);
    expect(field("Theme")).toBe(entry?.identity["theme"]);
    expect(field("Emoji")).toBe(entry?.identity["emoji"]);
  });

  it("USER.md is a template for goals, injuries, venues and units that fits the host's 4,000 character budget", () => {
    for (const heading of ["Goals", "Injuries and limits", "Venues", "Units"]) expect(user).toContain(`\n## ${heading}\n`);
    expect(section(user, "Units")).toMatch(/Distance: \(km or mi\)/);
    expect(user.length).toBeLessThan(4000);
  });

  it("every bootstrap file fits the host's default per-file injection limit", () => {
    for (const text of [agents, soul, identity, user, memory]) expect(text.length).toBeLessThan(20_000);
  });
});

describe("memory templates", () => {
  it("MEMORY.md has a consolidation date and the long-term sections", () => {
    expect(memory).toMatch(/^Last consolidated: never$/m);
    for (const heading of [
      "Training patterns",
      "Benchmarks and PRs",
      "Recovery and sleep",
      "Nutrition habits",
      "Injuries and niggles",
      "Flags to watch",
    ]) {
      expect(memory).toContain(`\n## ${heading}\n`);
    }
  });

  it("the daily note has sessions with activity ids, feelings, nutrition and recovery, flags, follow-ups", () => {
    for (const heading of ["Sessions logged", "How the athlete felt", "Nutrition and recovery", "Flags", "Follow-ups"]) {
      expect(dailyNote).toContain(`\n## ${heading}\n`);
    }
    expect(section(dailyNote, "Sessions logged")).toMatch(/activity <id>/);
  });

  it("the setup installs every workspace file and template there is", () => {
    const shipped = ["agents/coach/workspace", "memory-templates"].flatMap((dir) =>
      readdirSync(new URL(`../../${dir}`, import.meta.url), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(fileURLToPath(new URL("../../", import.meta.url)), path.join(entry.parentPath, entry.name))),
    );
    expect(COACH_WORKSPACE_FILES.map((file) => file.source).sort()).toEqual(shipped.sort());
  });
});
