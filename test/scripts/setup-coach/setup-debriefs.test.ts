// `npm run setup:coach` and the coach's debriefs of new workouts: a config without the setting gets the
// coach's default (15m) and the agent being set up as the debrief agent; --debriefs off|INTERVAL writes that
// choice over the config's (the operator's value wins); a rerun without it keeps the config's choice and
// changes nothing; a bad value stops setup before anything is written, naming the fix. The command runs in this
// process (setup-command-run.ts).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolvePluginSettings } from "../../../plugin/plugin-config.ts";
import { getPath, type JsonObject, type JsonValue } from "../../../scripts/setup-coach/json-tree.ts";
import { setupInProcess, type SetupRun } from "./setup-command-run.ts";

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "coach-setup-debriefs-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function setup(...args: string[]): Promise<SetupRun> {
  return await setupInProcess(args, {
    ...process.env,
    HOME: scratch,
    OPENCLAW_STATE_DIR: "",
    OPENCLAW_WORKSPACE_DIR: "",
    OPENCLAW_PROFILE: "",
  });
}

function paths(name: string): { config: string; base: string[] } {
  const config = path.join(scratch, name, "openclaw.json");
  return { config, base: ["--workspace", path.join(scratch, name, "workspace"), "--config", config, "--sandbox", "off"] };
}

const pluginConfig = async (config: string): Promise<Record<string, JsonValue>> =>
  getPath(JSON.parse(await readFile(config, "utf8")) as JsonObject, ["plugins", "entries", "fitness", "config"]) as Record<
    string,
    JsonValue
  >;

/** The report's debriefs section: from its heading to the next blank line. */
const debriefsSection = (stdout: string): string => /^Debriefs [\s\S]*?(?=\n\n)/m.exec(stdout)?.[0] ?? "";

describe("setup:coach --debriefs", () => {
  it("a new config gets 15m and the agent set up as the debrief agent; the plugin reads it as on", async () => {
    const { config, base } = paths("default");
    const run = await setup(...base, "--agent-id", "trainer");
    expect(run.code, run.stderr).toBe(0);
    const written = await pluginConfig(config);
    expect(written).toMatchObject({ debriefs: "15m", debriefAgent: "trainer" });
    expect(resolvePluginSettings(written)).toMatchObject({ debriefs: "15m", debriefAgent: "trainer" });
    const section = debriefsSection(run.stdout);
    expect(section).toContain('Debriefs plugins.entries.fitness.config.debriefs = "15m"');
    expect(section).toContain("added: the coach's default (no --debriefs given, none in the config)");
    expect(section).toContain("the athlete can turn this off by telling the coach");
  });

  it("--debriefs off replaces the config's choice; a rerun without it keeps off and changes nothing; --debriefs 30m wins again", async () => {
    const { config, base } = paths("switch");
    expect((await setup(...base)).code).toBe(0);
    const off = await setup(...base, "--debriefs", "off");
    expect(off.code, off.stderr).toBe(0);
    expect((await pluginConfig(config))["debriefs"]).toBe("off");
    expect(debriefsSection(off.stdout)).toContain('changed from "15m", as --debriefs off asked');
    expect(off.stdout).toContain("backup");
    const rerun = await setup(...base);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((await pluginConfig(config))["debriefs"]).toBe("off");
    expect(rerun.stdout).toContain("no changes: the coach is already configured");
    expect(debriefsSection(rerun.stdout)).toContain(
      "kept: already in the config (run setup with --debriefs 15m or --debriefs off to change it)",
    );
    const again = await setup(...base, "--debriefs", "30m");
    expect(again.code, again.stderr).toBe(0);
    expect((await pluginConfig(config))["debriefs"]).toBe("30m");
  });

  it.each(["1m", "25h", "sometimes"])("refuses --debriefs %s before writing anything", async (value) => {
    const { config, base } = paths(`bad-${value}`);
    const run = await setup(...base, "--debriefs", value);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `--debriefs must be "off" or how often to check for new workouts, from 5m to 24h (such as 15m or 1h); got "${value}"`,
    );
    await expect(readFile(config, "utf8")).rejects.toThrow(/ENOENT/);
  });
});
