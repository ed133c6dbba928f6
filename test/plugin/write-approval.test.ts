/**
 * The write-approval hook as the host calls it (`before_tool_call`, registered by the plugin's entry on
 * a recording host API), reading the current activity from the sandbox upstream with credentials in a
 * Secrets Manager secret served by moto_server: what the approval shows, which calls it holds, and that
 * asking never writes, and that a held call is validated and built once, by the hook, when the host then
 * runs the same call. The host's side (holding the call, asking in Telegram, /approve) is checked by
 * `npm run test:host` (coach-conversation).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { registerPlugin, textOf, type RecordingHost } from "./recording-host-api.ts";
import type { BeforeToolCallResult } from "../../plugin/host-api.ts";
import type { ToolDefinition } from "../../tools/definition/tool-definition.ts";
import { updateActivity } from "../../tools/update-activity.ts";

let moto: MotoServer;
let sandbox: RunningSandbox;
let host: RecordingHost;
let todaysWorkout: { id: number; name: string; sport_type: string };
const savedEnv = { ...process.env };

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  sandbox = await startSandbox();
  process.env["STRAVA_API_BASE"] = sandbox.apiBase;
  process.env["STRAVA_TOKEN_URL"] = sandbox.tokenUrl;
  const secrets = new SecretsManagerClient({ region: "us-west-2" });
  await secrets.send(
    new CreateSecretCommand({
      Name: "fitness-credentials",
      SecretString: JSON.stringify({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        refresh_token: sandbox.refreshToken(),
      }),
    }),
  );
  secrets.destroy();
  host = registerPlugin({ writeApprovalTimeoutSeconds: 45 });
  const list = JSON.parse(textOf(await host.invoke("fitness_get_activities", { per_page: 10 }))) as Array<{
    id: number;
    name: string;
    sport_type: string;
    description?: string;
  }>;
  const workout = list.find((activity) => activity.sport_type === "WeightTraining");
  if (!workout) throw new Error("the sandbox has no weight-training session today");
  todaysWorkout = workout;
});

afterAll(async () => {
  await sandbox?.close();
  await moto?.stop();
  process.env = savedEnv;
});

function hook(): (typeof host.hooks)[number]["handler"] {
  const [registered] = host.hooks;
  if (!registered) throw new Error("no hook registered");
  return registered.handler;
}

async function ask(toolName: string, params: Record<string, unknown>): Promise<BeforeToolCallResult | undefined> {
  return await hook()(structuredClone({ toolName, params }), { agentId: "coach", sessionKey: "agent:coach:main" });
}

const puts = (): number => sandbox.counters().byRoute["PUT /activities/{id}"] ?? 0;

/**
 * Counts, on the tool's own definition object, how often its arguments are validated (each validation
 * reads the definition's schema once) and its request built; calls go through unchanged.
 */
function countUses(tool: ToolDefinition): { validations: number; builds: number; restore(): void } {
  const { parameters, request } = tool;
  const counts = {
    validations: 0,
    builds: 0,
    restore() {
      Object.defineProperty(tool, "parameters", { value: parameters, writable: true, enumerable: true, configurable: true });
      Object.defineProperty(tool, "request", { value: request, writable: true, enumerable: true, configurable: true });
    },
  };
  Object.defineProperty(tool, "parameters", {
    get: () => {
      counts.validations += 1;
      return parameters;
    },
    enumerable: true,
    configurable: true,
  });
  Object.defineProperty(tool, "request", {
    value: (...args: Parameters<ToolDefinition["request"]>) => {
      counts.builds += 1;
      return request.apply(tool, args);
    },
    writable: true,
    enumerable: true,
    configurable: true,
  });
  return counts;
}

/** Runs a held call as the host does after an approval: the registered tool's execute, with a copy of the params. */
function runApproved(toolName: string, toolCallId: string, params: Record<string, unknown>) {
  const registered = host.tools.get(toolName);
  if (!registered) throw new Error(`no tool named ${toolName} was registered`);
  return registered.tool.execute(toolCallId, structuredClone(params));
}

describe("the write-approval hook", () => {
  it("holds an update with the current and proposed values, reading the activity but writing nothing", async () => {
    const reads = sandbox.counters().byRoute["GET /activities/{id}"] ?? 0;
    const before = puts();
    const result = await ask("fitness_update_activity", {
      id: todaysWorkout.id,
      name: "Iron Temple | Back Squat",
      sport_type: "Workout",
      description: "Strength:\n- Back squat 5x5 @ 185",
    });
    expect(result?.requireApproval).toMatchObject({
      title: "Update Strava activity",
      severity: "warning",
      allowedDecisions: ["allow-once", "deny"],
      timeoutMs: 45_000,
    });
    const text = result?.requireApproval?.description ?? "";
    expect(text).toMatch(new RegExp(`^Activity ${todaysWorkout.id}, \\w{3} \\d{1,2} \\w{3} \\d{2}:\\d{2}\\n`));
    expect(text).toContain(`Title: "${todaysWorkout.name}" → "Iron Temple | Back Squat"`);
    expect(text).toContain('Sport type: "WeightTraining" → "Workout"');
    expect(text).toContain("Description (was empty):\n```\n+ Strength:\n+ - Back squat 5x5 @ 185\n```");
    expect(sandbox.counters().byRoute["GET /activities/{id}"]).toBe(reads + 1);
    expect(puts()).toBe(before);
  });

  it("holds creating an activity and uploading a file, and nothing reaches the upstream for them", async () => {
    const requests = sandbox.counters().apiRequests;
    const created = await ask("fitness_create_activity", {
      name: "Garage Gym | Pulls",
      sport_type: "WeightTraining",
      start_date_local: "2026-11-21T18:30",
      elapsed_time: 3600,
    });
    expect(created?.requireApproval?.title).toBe("Create Strava activity");
    expect(created?.requireApproval?.description).toContain('New activity: "Garage Gym | Pulls"');
    const uploaded = await ask("fitness_create_upload", {
      file: Buffer.from("not really a fit file").toString("base64"),
      data_type: "fit",
    });
    expect(uploaded?.requireApproval?.title).toBe("Upload an activity file to Strava");
    expect(sandbox.counters().apiRequests).toBe(requests);
  });

  it("does not hold a call the tool itself would refuse, so the model gets the tool's own error", async () => {
    const requests = sandbox.counters().apiRequests;
    expect(await ask("fitness_update_activity", { id: "twelve", name: "x" })).toBeUndefined();
    expect(await ask("fitness_update_activity", { id: todaysWorkout.id })).toBeUndefined();
    expect(await ask("fitness_create_activity", { name: "No sport type" })).toBeUndefined();
    expect(await ask("fitness_create_upload", { file: "%%% not base64 %%%", data_type: "fit" })).toBeUndefined();
    expect(sandbox.counters().apiRequests).toBe(requests);
  });

  it("still holds an update when the activity cannot be read, saying why", async () => {
    const result = await ask("fitness_update_activity", { id: 999_999_999_999, name: "Leg Day" });
    expect(result?.requireApproval?.description).toMatch(/^Activity 999999999999\nCurrent values could not be read \(Strava answered 404/);
    expect(result?.requireApproval?.description).toContain('Title: → "Leg Day"');
  });

  it("validates and builds a held write once: the call the host runs after the approval sends what the hook prepared", async () => {
    const counted = countUses(updateActivity);
    try {
      const params = { id: todaysWorkout.id, description: "Strength:\n- Deadlift 3x5" };
      const held = await hook()(structuredClone({ toolName: "fitness_update_activity", params, toolCallId: "call-once" }), {
        agentId: "coach",
      });
      expect(held?.requireApproval?.title).toBe("Update Strava activity");
      const before = puts();
      const result = await runApproved("fitness_update_activity", "call-once", params);
      expect(result.isError, textOf(result)).toBeUndefined();
      expect(JSON.parse(textOf(result))).toMatchObject({ id: todaysWorkout.id, description: params.description });
      expect(puts()).toBe(before + 1);
      expect({ validations: counted.validations, builds: counted.builds }).toEqual({ validations: 1, builds: 1 });
    } finally {
      counted.restore();
    }
  });

  it("validates a call again when the host runs it with other params or under another id, and sends those params", async () => {
    const counted = countUses(updateActivity);
    try {
      const params = { id: todaysWorkout.id, name: "Iron Temple | Pulls" };
      await hook()(structuredClone({ toolName: "fitness_update_activity", params, toolCallId: "call-changed" }), { agentId: "coach" });
      const changed = await runApproved("fitness_update_activity", "call-changed", { ...params, name: "Iron Temple | Rows" });
      expect(JSON.parse(textOf(changed))).toMatchObject({ name: "Iron Temple | Rows" });
      await hook()(structuredClone({ toolName: "fitness_update_activity", params, toolCallId: "call-first" }), { agentId: "coach" });
      const other = await runApproved("fitness_update_activity", "call-other", params);
      expect(JSON.parse(textOf(other))).toMatchObject({ name: "Iron Temple | Pulls" });
      expect({ validations: counted.validations, builds: counted.builds }).toEqual({ validations: 4, builds: 4 });
    } finally {
      counted.restore();
    }
  });

  it("is not called for read tools (its matcher) and answers nothing if it were", async () => {
    expect(host.hooks[0]?.options?.matcher).not.toContain("fitness_get_activities");
    expect(await ask("fitness_get_activities", { per_page: 1 })).toBeUndefined();
  });
});
