/**
 * The plugin on intervals.icu, as the host runs it (its default export registered on a recording host API, with
 * `"upstream": "intervals.icu"`), against the sandbox's intervals.icu face: the athlete's API key read from the
 * token file, or from a Secrets Manager secret served by a real moto_server, where `npm run authorize:intervals`
 * keeps it beside the Strava fields; only intervals.icu's tools registered; reads, a write held for approval and
 * then sent as held, a Strava-synced stub's change refused; a store without the key named with the command that
 * writes it; the key in no log line, result or detail.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { intervalsToolTable } from "../../tools/intervals-icu/table.ts";
import { hostToolName } from "../../plugin/host-tool.ts";
import type { HostToolResult } from "../../plugin/host-api.ts";
import { storeIntervalsKey } from "../../scripts/authorize/store-intervals-key.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { registerPlugin, textOf, type RecordingHost } from "./recording-host-api.ts";

let moto: MotoServer;
let sandbox: RunningSandbox;
let directory: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  sandbox = await startSandbox();
  process.env["INTERVALS_API_BASE"] = sandbox.intervalsApiBase;
  directory = await mkdtemp(join(tmpdir(), "fitness-plugin-icu-"));
});

afterAll(async () => {
  await sandbox?.close();
  await moto?.stop();
  if (directory) await rm(directory, { recursive: true, force: true });
  process.env = savedEnv;
});

function ok(result: HostToolResult, tool: string): unknown {
  expect(result.isError, `${tool}: ${textOf(result)}`).toBeUndefined();
  expect(result.details["tool"]).toBe(tool);
  return JSON.parse(textOf(result));
}

/** Nothing the host saw holds the key: its log lines, and every result and detail so far. */
function expectNoKey(host: RecordingHost, results: HostToolResult[]): void {
  const seen = [...host.logs.map((line) => line.message), ...results.map((result) => JSON.stringify(result))];
  expect(seen.filter((text) => text.includes(sandbox.intervalsApiKey))).toEqual([]);
}

/** The key written where the plugin reads it, as the operator's command writes it (checked with intervals.icu first). */
async function keyInto(target: Parameters<typeof storeIntervalsKey>[0]["target"]): Promise<string[]> {
  const printed: string[] = [];
  await storeIntervalsKey(
    { target, remove: false, check: true, athleteId: "0", apiBase: sandbox.intervalsApiBase },
    { print: (line) => printed.push(line), readKey: async () => sandbox.intervalsApiKey },
  );
  return printed;
}

describe("the plugin on intervals.icu, its key in the token file", () => {
  let host: RecordingHost;
  let tokenFile: string;
  const results: HostToolResult[] = [];
  const call = async (tool: string, args: unknown = {}): Promise<HostToolResult> => {
    const result = await host.invoke(tool, args);
    results.push(result);
    return result;
  };

  beforeAll(async () => {
    tokenFile = join(directory, "tokens.json");
    // A token file that also holds Strava's fields (an athlete who used both): the plugin reads the log its config names.
    await writeFile(tokenFile, JSON.stringify({ client_id: "1", client_secret: "s", refresh_token: "r" }), { mode: 0o600 });
    await keyInto({ kind: "token-file", path: tokenFile });
    host = registerPlugin({ upstream: "intervals.icu", credentialStore: "token-file", tokenFile });
  });

  it("registers intervals.icu's tools only, the writes optional and held by the approval hook", () => {
    expect([...host.tools.keys()]).toEqual(intervalsToolTable.map(hostToolName));
    expect(host.tools.has("fitness_get_athlete_stats")).toBe(false);
    expect(host.tools.get("fitness_update_activity")?.options?.optional).toBe(true);
    expect(host.hooks[0]?.options?.matcher).toEqual(["fitness_create_activity", "fitness_update_activity", "fitness_create_upload"]);
    expect(host.tools.get("fitness_get_wellness")?.tool.description).toMatch(/intervals\.icu/);
  });

  it("reads the athlete, the activities and the wellness from intervals.icu, and says in its log which log and store", async () => {
    expect(ok(await call("fitness_get_athlete"), "fitness_get_athlete")).toMatchObject({ id: sandbox.intervalsAthleteId });
    const activities = ok(
      await call("fitness_get_activities", { limit: 5, fields: ["id", "name", "type"] }),
      "fitness_get_activities",
    ) as unknown[];
    expect(activities).toHaveLength(5);
    expect((ok(await call("fitness_get_wellness", { fields: ["hrv"] }), "fitness_get_wellness") as unknown[]).length).toBe(28);
    const ready = host.logs.find((line) => line.message.includes("fitness_tools_ready"));
    expect(JSON.parse(ready!.message)).toMatchObject({
      upstream: "intervals.icu",
      credentials: `token file ${tokenFile} (intervals_api_key)`,
      api_base: sandbox.intervalsApiBase,
    });
    expectNoKey(host, results);
  });

  it("holds an update for approval with intervals.icu's current values, then sends it as held: only the fields given", async () => {
    const list = ok(await call("fitness_get_activities", { limit: 20 }), "fitness_get_activities") as Array<{
      id: string;
      type?: string;
      name?: string;
      source: string;
    }>;
    const workout = list.find((activity) => activity.source !== "STRAVA" && activity.type === "WeightTraining")!;
    const params = { id: workout.id, name: "Iron Temple | Back Squat" };
    const puts = (): number => sandbox.counters().byRoute["intervals.icu PUT /activity/{id}"] ?? 0;
    const before = puts();
    const held = await host.hooks[0]!.handler({ toolName: "fitness_update_activity", params, toolCallId: "icu-1" }, { agentId: "coach" });
    expect(held?.requireApproval?.title).toBe("Update intervals.icu activity");
    expect(held?.requireApproval?.description).toContain(`Title: "${workout.name}" → "Iron Temple | Back Squat"`);
    expect(held?.requireApproval?.description).toContain('Sport type: "WeightTraining" (unchanged)');
    expect(puts()).toBe(before);
    const updated = ok(await host.tools.get("fitness_update_activity")!.tool.execute("icu-1", params), "fitness_update_activity");
    expect(updated).toMatchObject({ id: workout.id, name: "Iron Temple | Back Squat", type: "WeightTraining" });
    expect(puts()).toBe(before + 1);
  });

  it("does not hold a change to a Strava-synced stub: the tool refuses it, saying why, and nothing is sent", async () => {
    const puts = sandbox.counters().byRoute["intervals.icu PUT /activity/{id}"] ?? 0;
    const params = { id: "15848970269", name: "x" };
    expect(
      await host.hooks[0]!.handler({ toolName: "fitness_update_activity", params, toolCallId: "icu-2" }, { agentId: "coach" }),
    ).toBeUndefined();
    const refused = await host.tools.get("fitness_update_activity")!.tool.execute("icu-2", params);
    expect(refused.isError).toBe(true);
    expect(refused.details).toMatchObject({ ok: false });
    expect(textOf(refused)).toContain("reached intervals.icu from Strava, and intervals.icu cannot change such an activity");
    expect(sandbox.counters().byRoute["intervals.icu PUT /activity/{id}"] ?? 0).toBe(puts);
  });

  it("keeps the token file's Strava fields beside the key", async () => {
    expect(JSON.parse(await readFile(tokenFile, "utf8"))).toMatchObject({
      client_id: "1",
      client_secret: "s",
      refresh_token: "r",
      intervals_api_key: sandbox.intervalsApiKey,
    });
  });

  it("a token file without the key: each call says so, naming the command that writes it", async () => {
    const empty = join(directory, "no-key.json");
    await writeFile(empty, JSON.stringify({ note: "nothing else" }), { mode: 0o600 });
    const bare = registerPlugin({ upstream: "intervals.icu", credentialStore: "token-file", tokenFile: empty });
    const result = await bare.invoke("fitness_get_athlete");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `Error: The token file ${empty} holds no intervals_api_key, so the intervals.icu tools have no API key. Write the key shown under ` +
        `Settings > Developer Settings on intervals.icu with npm run authorize:intervals -- --store file --token-file ${empty} (it asks for the key; ` +
        "never put it in the plugin's config).",
    );
  });
});

describe("the plugin on intervals.icu, its key in a Secrets Manager secret", () => {
  it("reads the key from the secret and answers from intervals.icu; a secret that does not exist is named", async () => {
    const secrets = new SecretsManagerClient({ region: "us-west-2" });
    await secrets.send(new CreateSecretCommand({ Name: "icu-coach", SecretString: JSON.stringify({ note: "kept" }) }));
    secrets.destroy();
    const printed = await keyInto({ kind: "secrets-manager", secretName: "icu-coach", region: "us-west-2" });
    expect(printed.join("\n")).not.toContain(sandbox.intervalsApiKey);
    const host = registerPlugin({ upstream: "intervals.icu", secretName: "icu-coach" });
    const athlete = await host.invoke("fitness_get_athlete");
    expect(ok(athlete, "fitness_get_athlete")).toMatchObject({ id: sandbox.intervalsAthleteId });
    expect(JSON.parse(host.logs.find((line) => line.message.includes("fitness_tools_ready"))!.message)).toMatchObject({
      credentials: 'Secrets Manager secret "icu-coach" in us-west-2 (intervals_api_key)',
    });
    expectNoKey(host, [athlete]);

    const missing = registerPlugin({ upstream: "intervals.icu", secretName: "no-such-secret" });
    const refused = await missing.invoke("fitness_get_wellness");
    expect(textOf(refused)).toContain(
      'Error: The Secrets Manager secret "no-such-secret" in us-west-2 does not exist, so the intervals.icu tools have no API key.',
    );
    expect(textOf(refused)).toContain(
      "npm run authorize:intervals -- --store secrets-manager --secret-name no-such-secret --region us-west-2",
    );
  });
});
