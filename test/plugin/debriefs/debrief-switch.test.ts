/**
 * The athlete's switch, `fitness_debriefs`: built only for the bound athlete's own turns (the context the
 * host gives a tool factory, as openclaw 2026.9.6 fills it for a Telegram direct message), and what it
 * does: off, on, and the state without an argument, kept in the record.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manualClock } from "../../support/test-clock.ts";
import type { HostToolContext } from "../../../plugin/host-api.ts";
import { checkBoundAthlete } from "../../../plugin/debriefs/bound-athlete.ts";
import { debriefSwitchTool, debriefSwitchToolName } from "../../../plugin/debriefs/debrief-switch-tool.ts";
import { DebriefRecordFile } from "../../../plugin/debriefs/debrief-record.ts";
import { DebriefWatch } from "../../../plugin/debriefs/debrief-watch.ts";

const athlete = "5550001";
const hostConfig = {
  bindings: [
    { agentId: "main", match: { channel: "telegram", accountId: "*" } },
    { agentId: "coach", match: { channel: "telegram", accountId: "coach" } },
  ],
  channels: { telegram: { accounts: { coach: { dmPolicy: "allowlist", allowFrom: [athlete] }, default: { enabled: false } } } },
};
/** The context of the athlete's direct message to the coach's bot, as the host passed it (checked in the real host). */
const athleteTurn: HostToolContext = {
  agentId: "coach",
  sessionKey: "agent:coach:main",
  messageChannel: "telegram",
  agentAccountId: "coach",
  requesterSenderId: athlete,
  senderIsOwner: false,
  runtimeConfig: hostConfig,
};

describe("who gets the switch", () => {
  it("the athlete the coach's bound account admits, in their own turn", () => {
    expect(checkBoundAthlete(athleteTurn, "coach")).toEqual({ ok: true, channel: "telegram", sender: athlete });
    // allowFrom entries with a channel prefix or as numbers name the same sender; config or runtimeConfig.
    const prefixed = { ...hostConfig, channels: { telegram: { accounts: { coach: { allowFrom: [`telegram:${athlete}`] } } } } };
    expect(checkBoundAthlete({ ...athleteTurn, runtimeConfig: undefined, config: prefixed }, "coach").ok).toBe(true);
    const numeric = { ...hostConfig, channels: { telegram: { accounts: { coach: { allowFrom: [Number(athlete)] } } } } };
    expect(checkBoundAthlete({ ...athleteTurn, runtimeConfig: numeric }, "coach").ok).toBe(true);
  });

  it.each([
    ["a wake or a scheduled run (no sender)", { requesterSenderId: undefined }, /no sender the host vouches for/],
    ["another agent's turn", { agentId: "main" }, /agent main's, not coach's/],
    ["someone else on the coach's bot", { requesterSenderId: "999" }, /not the athlete/],
    ["the coach reached through another account", { agentAccountId: "other" }, /no binding routes telegram account other to coach/],
    ["another channel", { messageChannel: "discord" }, /no binding routes discord/],
    ["a host that gave no config", { runtimeConfig: undefined }, /no config snapshot/],
  ] as const)("not %s", (_what, change, reason) => {
    const result = checkBoundAthlete({ ...athleteTurn, ...change }, "coach");
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.reason).toMatch(reason);
  });

  it("not when the account admits anyone (a wildcard names no athlete)", () => {
    const open = { ...hostConfig, channels: { telegram: { accounts: { coach: { allowFrom: ["*"] } } } } };
    expect(checkBoundAthlete({ ...athleteTurn, runtimeConfig: open }, "coach").ok).toBe(false);
  });
});

describe("the switch", () => {
  let directory: string;
  let watch: DebriefWatch;
  let switched: number;
  const withheld: string[] = [];

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), "debrief-switch-"));
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    watch = new DebriefWatch({
      settings: {
        debriefs: "15m",
        debriefAgent: "coach",
        debriefQuietHours: "22:00-07:00",
        debriefTimeZone: "",
        debriefTestIntervalSeconds: 0,
      },
      record: new DebriefRecordFile(join(directory, "debriefs.json"), logger),
      listRecent: () => Promise.reject(new Error("the switch lists nothing")),
      readsResumeAt: async () => undefined,
      wake: () => true,
      logger,
      now: manualClock().now,
      fallbackTimeZone: "UTC",
      writesInFlight: () => 0,
    });
    switched = 0;
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const factory = () =>
    debriefSwitchTool({
      watch,
      agentId: "coach",
      changed: () => (switched += 1),
      refused: (reason) => withheld.push(reason),
    });

  it("is not built for a turn that is not the athlete's", () => {
    expect(factory()({ ...athleteTurn, requesterSenderId: undefined })).toBeNull();
    expect(withheld.at(-1)).toMatch(/no sender/);
  });

  it("turns debriefs off and on, keeps the choice, and says the state", async () => {
    const tool = factory()(athleteTurn);
    expect(tool?.name).toBe(debriefSwitchToolName);
    const off = await tool!.execute("call-1", { debriefs: "off" });
    expect(JSON.parse(off.content[0]!.text)).toEqual({
      debriefs: "off",
      checks_every: "15 min",
      quiet_hours: "22:00-07:00",
      time_zone: "UTC",
      decided_by: "the athlete, in chat",
    });
    expect(switched).toBe(1);
    expect(JSON.parse(readFileSync(join(directory, "debriefs.json"), "utf8")).athleteChoice).toMatchObject({
      enabled: false,
      setting: "15m",
    });
    const state = await tool!.execute("call-2", {});
    expect(JSON.parse(state.content[0]!.text)).toMatchObject({ debriefs: "off" });
    expect(switched).toBe(1);
    const on = await tool!.execute("call-3", { debriefs: "on" });
    expect(JSON.parse(on.content[0]!.text)).toMatchObject({ debriefs: "on", decided_by: "the athlete, in chat" });
  });

  it("refuses a bad argument, naming it, and changes nothing", async () => {
    const result = await factory()(athleteTurn)!.execute("call-1", { debriefs: "sometimes" });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^Error: .*debriefs/);
    expect(switched).toBe(0);
  });
});
