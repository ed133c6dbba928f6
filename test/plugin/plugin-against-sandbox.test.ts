/**
 * The plugin as the host runs it (default export registered on a recording host API), every tool
 * against the sandbox upstream, credentials in a Secrets Manager secret served by a real moto_server:
 * refresh write-back into the secret, the host's unvalidated invoke path, and the secret errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { registerPlugin, textOf, type RecordingHost } from "./recording-host-api.ts";
import type { HostToolResult } from "../../plugin/host-api.ts";

let moto: MotoServer;
let sandbox: RunningSandbox;
let secrets: SecretsManagerClient;
let host: RecordingHost;
let initialRefreshToken: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  sandbox = await startSandbox({ uploadProcessingMs: 50, rateLimits: { overall: [10_000, 100_000], read: [10_000, 100_000] } });
  process.env["STRAVA_API_BASE"] = sandbox.apiBase;
  process.env["STRAVA_TOKEN_URL"] = sandbox.tokenUrl;
  secrets = new SecretsManagerClient({ region: "us-west-2" });
  initialRefreshToken = sandbox.refreshToken();
  await putSecret("fitness-credentials", {
    client_id: sandbox.clientId,
    client_secret: sandbox.clientSecret,
    refresh_token: initialRefreshToken,
    note: "set by the operator, kept by every write",
  });
  host = registerPlugin({ secretName: "fitness-credentials", cloudRegion: "us-west-2" });
});

afterAll(async () => {
  secrets?.destroy();
  await sandbox?.close();
  await moto?.stop();
  process.env = savedEnv;
});

async function putSecret(name: string, value: unknown, region = "us-west-2"): Promise<void> {
  const client = new SecretsManagerClient({ region });
  try {
    await client.send(new CreateSecretCommand({ Name: name, SecretString: typeof value === "string" ? value : JSON.stringify(value) }));
  } finally {
    client.destroy();
  }
}

async function readSecret(name: string): Promise<Record<string, unknown>> {
  const answer = await secrets.send(new GetSecretValueCommand({ SecretId: name, VersionStage: "AWSCURRENT" }));
  return JSON.parse(answer.SecretString ?? "null") as Record<string, unknown>;
}

function ok(result: HostToolResult, tool: string): unknown {
  expect(result.isError, `${tool}: ${textOf(result)}`).toBeUndefined();
  expect(Object.keys(result.details).sort()).toEqual(["tool", "upstreamStatus"]);
  expect(result.details["tool"]).toBe(tool);
  return JSON.parse(textOf(result));
}

describe("the plugin's tools against the sandbox, credentials in Secrets Manager", () => {
  const call = (tool: string, args: unknown = {}): Promise<HostToolResult> => host.invoke(tool, args);

  it("the first call refreshes and writes the rotated tokens back into the secret, keeping the other fields", async () => {
    const before = Math.floor(Date.now() / 1000);
    const athlete = ok(await call("fitness_get_athlete"), "fitness_get_athlete") as { id: number };
    expect(athlete.id).toBe(sandbox.athleteId);
    const stored = await readSecret("fitness-credentials");
    expect(stored).toMatchObject({
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      refresh_token: sandbox.refreshToken(),
      note: "set by the operator, kept by every write",
    });
    expect(stored["refresh_token"]).not.toBe(initialRefreshToken);
    expect(typeof stored["access_token"]).toBe("string");
    expect(stored["expires_at"]).toBeGreaterThan(before + 5 * 3600);
  });

  it("logs through api.logger as JSON lines, with no token or secret in them", () => {
    expect(host.logs.length).toBeGreaterThan(0);
    const events = host.logs.map((line) => (JSON.parse(line.message) as { event: string }).event);
    expect(events).toEqual(expect.arrayContaining(["fitness_tools_ready", "token_refreshed", "tool_call"]));
    const ready = host.logs.find((line) => line.message.includes("fitness_tools_ready"));
    expect(ready?.message).toContain('Secrets Manager secret \\"fitness-credentials\\" in us-west-2');
  });

  let activityId = 0;
  it("reads activities, one activity, its zones and streams, the stats and the club feed", async () => {
    const activities = ok(await call("fitness_get_activities", { per_page: 10 }), "fitness_get_activities") as Array<{ id: number }>;
    expect(activities).toHaveLength(10);
    activityId = activities[0]!.id;
    const detail = ok(await call("fitness_get_activity_by_id", { id: activityId }), "fitness_get_activity_by_id") as { id: number };
    expect(detail.id).toBe(activityId);
    expect(Array.isArray(ok(await call("fitness_get_activity_zones", { id: activityId }), "fitness_get_activity_zones"))).toBe(true);
    const streams = ok(
      await call("fitness_get_activity_streams", { id: activityId, keys: ["time", "heartrate"] }),
      "fitness_get_activity_streams",
    ) as Array<{ type: string; data: unknown[] }>;
    expect(streams.map((stream) => stream.type)).toContain("time");
    expect(streams[0]?.data.length).toBeGreaterThan(0);
    const stats = ok(await call("fitness_get_athlete_stats"), "fitness_get_athlete_stats") as Record<string, { count: number }>;
    expect(stats["all_run_totals"]?.count).toBeGreaterThan(0);
    const athlete = ok(await call("fitness_get_athlete"), "fitness_get_athlete") as { clubs?: Array<{ id: number }> };
    const clubId = athlete.clubs?.[0]?.id;
    expect(clubId, "the seeded athlete belongs to a club").toBeDefined();
    expect(
      (ok(await call("fitness_get_club_activities", { id: clubId, per_page: 3 }), "fitness_get_club_activities") as unknown[]).length,
    ).toBe(3);
  });

  it("creates an activity and updates it; the update is what the upstream serves afterwards", async () => {
    const created = ok(
      await call("fitness_create_activity", {
        name: "Iron Temple | Squat",
        sport_type: "WeightTraining",
        start_date_local: "2026-11-21T07:30:00",
        elapsed_time: 3600,
        description: "Strength\n- Back squat 5x5 @ 100 kg",
      }),
      "fitness_create_activity",
    ) as { id: number };
    const updated = ok(
      await call("fitness_update_activity", { id: created.id, name: "Iron Temple | Heavy Squat", sport_type: "Workout" }),
      "fitness_update_activity",
    ) as { name: string; description: string };
    expect(updated).toMatchObject({ name: "Iron Temple | Heavy Squat", description: "Strength\n- Back squat 5x5 @ 100 kg" });
    const token = (await readSecret("fitness-credentials"))["access_token"] as string;
    const direct = await fetch(`${sandbox.apiBase}/activities/${created.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(await direct.json()).toMatchObject({ name: "Iron Temple | Heavy Squat", sport_type: "Workout" });
  });

  it("uploads a GPX file and follows the upload until it is ready", async () => {
    const points = Array.from(
      { length: 20 },
      (_, index) =>
        `<trkpt lat="${47.6 + index * 0.0005}" lon="-122.3"><time>2026-11-21T06:${String(index).padStart(2, "0")}:00Z</time></trkpt>`,
    );
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><name>Lake loop</name><trkseg>${points.join("")}</trkseg></trk></gpx>`;
    const upload = ok(
      await call("fitness_create_upload", {
        file: Buffer.from(gpx).toString("base64"),
        data_type: "gpx",
        name: "Lake loop",
        external_id: `plugin-${Date.now()}`,
      }),
      "fitness_create_upload",
    ) as { id: number };
    let polled = { status: "", activity_id: null as number | null };
    for (let attempt = 0; attempt < 50 && polled.status !== "Your activity is ready."; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      polled = ok(await call("fitness_get_upload", { id: upload.id }), "fitness_get_upload") as typeof polled;
    }
    expect(polled.status).toBe("Your activity is ready.");
    expect(polled.activity_id).toBeGreaterThan(0);
  });

  it("validates arguments itself (the host's invoke paths do not), before any request", async () => {
    const before = sandbox.counters().apiRequests;
    const wrongType = await call("fitness_get_activity_by_id", { id: "twelve" });
    const nothingToChange = await call("fitness_update_activity", { id: activityId });
    const unknownField = await call("fitness_get_athlete", { verbose: true });
    for (const result of [wrongType, nothingToChange, unknownField]) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Error: /);
      expect(result.details).toMatchObject({ isError: true, ok: false });
      expect(result.details["upstreamStatus"]).toBeUndefined();
    }
    expect(textOf(wrongType)).toContain("id");
    expect(textOf(nothingToChange)).toContain("Nothing to update");
    expect(textOf(unknownField)).toContain("verbose");
    expect(sandbox.counters().apiRequests).toBe(before);
  });

  it("an upstream 404 is an error result with the upstream status in details", async () => {
    const result = await call("fitness_get_activity_by_id", { id: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error: Strava answered 404/);
    expect(result.details).toEqual({ tool: "fitness_get_activity_by_id", upstreamStatus: 404, isError: true, ok: false });
  });

  it("a revoked token is refreshed once for concurrent calls, and the secret holds the new tokens", async () => {
    const before = await readSecret("fitness-credentials");
    const tokenRequests = sandbox.counters().tokenRequests;
    sandbox.expireAccessTokens();
    const results = await Promise.all(Array.from({ length: 5 }, () => call("fitness_get_athlete")));
    for (const result of results) ok(result, "fitness_get_athlete");
    expect(sandbox.counters().tokenRequests - tokenRequests).toBe(1);
    const after = await readSecret("fitness-credentials");
    expect(after["access_token"]).not.toBe(before["access_token"]);
    expect(after["refresh_token"]).toBe(sandbox.refreshToken());
    expect(after["refresh_token"]).not.toBe(before["refresh_token"]);
    expect(after["expires_at"]).toBeGreaterThanOrEqual(before["expires_at"] as number);
    expect(after).toMatchObject({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, note: before["note"] });
  });

  it("never logs a token or the client secret", async () => {
    const stored = await readSecret("fitness-credentials");
    const secretsSeen = [stored["access_token"], stored["refresh_token"], initialRefreshToken, sandbox.clientSecret] as string[];
    for (const line of host.logs) {
      for (const value of secretsSeen) expect(line.message).not.toContain(value);
    }
  });
});

describe("a missing, unreadable or malformed secret", () => {
  const distinctive = { client_id: "client-id-value-7391", client_secret: "client-secret-value-5521" };

  async function firstCallWith(secretName: string, cloudRegion = "us-west-2"): Promise<{ text: string; logs: string[] }> {
    const plugin = registerPlugin({ secretName, cloudRegion });
    const before = sandbox.counters().requests;
    const result = await plugin.invoke("fitness_get_athlete");
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ tool: "fitness_get_athlete", isError: true, ok: false });
    // Nothing reached the upstream: not the token endpoint, not the API.
    expect(sandbox.counters().requests).toBe(before);
    return { text: textOf(result), logs: plugin.logs.map((line) => line.message) };
  }

  it("a secret that does not exist: names it, its region, and how to create it", async () => {
    const { text } = await firstCallWith("no-such-secret");
    expect(text).toMatch(/^Error: /);
    expect(text).toContain('Secrets Manager secret "no-such-secret" in us-west-2 does not exist');
    expect(text).toContain("npm run authorize -- --store secrets-manager");
  });

  it("a secret in another region than configured is reported as missing in the configured region", async () => {
    const { text } = await firstCallWith("fitness-credentials", "eu-west-1");
    expect(text).toContain('Secrets Manager secret "fitness-credentials" in eu-west-1 does not exist');
  });

  it("a secret that is not JSON: names it and the expected fields, not its contents", async () => {
    await putSecret("not-json", `client_secret=${distinctive.client_secret}`);
    const { text, logs } = await firstCallWith("not-json");
    expect(text).toContain('Secrets Manager secret "not-json" in us-west-2 is not valid JSON');
    expect(text).toContain("client_id");
    for (const line of [text, ...logs]) expect(line).not.toContain(distinctive.client_secret);
  });

  it("a secret without a refresh token: names the secret and the missing field, never the values", async () => {
    await putSecret("incomplete", distinctive);
    const { text, logs } = await firstCallWith("incomplete");
    expect(text).toContain('Secrets Manager secret "incomplete" in us-west-2 is incomplete (missing refresh_token)');
    for (const line of [text, ...logs]) {
      expect(line).not.toContain(distinctive.client_id);
      expect(line).not.toContain(distinctive.client_secret);
    }
  });

  it("a secret with fields of the wrong type: names them", async () => {
    await putSecret("mistyped", { client_id: ["x"], client_secret: distinctive.client_secret, refresh_token: 17 });
    const { text } = await firstCallWith("mistyped");
    expect(text).toContain('Secrets Manager secret "mistyped" in us-west-2 is incomplete');
    expect(text).toContain("client_id (must be a string)");
    expect(text).toContain("refresh_token (must be a string)");
    expect(text).not.toContain(distinctive.client_secret);
  });
});
