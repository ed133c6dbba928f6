/**
 * The three credential stores: the token file (0600, atomic, merged), the environment with rotations
 * persisted to the file, and Secrets Manager against a real moto_server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { TokenFileStore, defaultTokenFilePath } from "../../tools/token-file-store.ts";
import { EnvCredentialStore, missingStravaEnv } from "../../tools/env-credential-store.ts";
import { SecretsManagerStore } from "../../tools/secrets-manager-store.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "fitness-stores-"));
  return () => rm(directory, { recursive: true, force: true });
});

describe("TokenFileStore", () => {
  it("creates the file (and its directory) with mode 0600 and merges later saves", async () => {
    const store = new TokenFileStore({ path: join(directory, "nested", "tokens.json") });
    await store.save({ client_id: "1", client_secret: "s", refresh_token: "r1" });
    await store.save({ refresh_token: "r2", access_token: "a2", expires_at: 123 });
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    expect(await store.load()).toEqual({ client_id: "1", client_secret: "s", refresh_token: "r2", access_token: "a2", expires_at: 123 });
    expect(await readdir(join(directory, "nested"))).toEqual(["tokens.json"]);
  });

  it("replaces a file with looser permissions by a 0600 one", async () => {
    const path = join(directory, "tokens.json");
    await writeFile(path, "{}", { mode: 0o644 });
    await new TokenFileStore({ path }).save({ refresh_token: "r" });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("concurrent saves all land (no lost update)", async () => {
    const store = new TokenFileStore({ path: join(directory, "tokens.json") });
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.save({ [`field_${index}`]: index } as never)));
    const saved = JSON.parse(await readFile(store.path, "utf8")) as Record<string, unknown>;
    for (let index = 0; index < 20; index++) expect(saved[`field_${index}`]).toBe(index);
  });

  it("names the file and the fix when it is missing, not JSON, or incomplete", async () => {
    const path = join(directory, "tokens.json");
    const store = new TokenFileStore({ path });
    await expect(store.load()).rejects.toThrow(`The token file ${path} does not exist. Run npm run authorize -- --store file`);
    await writeFile(path, "{not json");
    await expect(store.load()).rejects.toThrow(`The token file ${path} is not valid JSON.`);
    await writeFile(path, JSON.stringify({ client_id: 5, refresh_token: "very-secret-refresh" }));
    const error = await store.load().catch((caught: Error) => caught);
    expect(String(error)).toContain(`The token file ${path} is incomplete (missing client_secret)`);
    expect(String(error)).not.toContain("very-secret-refresh");
  });

  it("defaults to FITNESS_TOKEN_FILE, else the user's config directory", () => {
    expect(defaultTokenFilePath({ FITNESS_TOKEN_FILE: "/x/t.json" })).toBe("/x/t.json");
    expect(defaultTokenFilePath({ XDG_CONFIG_HOME: "/cfg" })).toBe("/cfg/openclaw-fitness/strava-tokens.json");
  });
});

describe("EnvCredentialStore", () => {
  const env = { STRAVA_CLIENT_ID: "1234", STRAVA_CLIENT_SECRET: "cs", STRAVA_REFRESH_TOKEN: "env-r1" };

  it("starts from the environment and persists rotations to the file", async () => {
    const file = new TokenFileStore({ path: join(directory, "tokens.json") });
    const store = new EnvCredentialStore({ env, file });
    expect(await store.load()).toEqual({ client_id: "1234", client_secret: "cs", refresh_token: "env-r1" });
    await store.save({ refresh_token: "r2", access_token: "a2", expires_at: 99 });
    // A restart with the same environment picks up the rotated tokens.
    const again = new EnvCredentialStore({ env, file });
    expect(await again.load()).toEqual({ client_id: "1234", client_secret: "cs", refresh_token: "r2", access_token: "a2", expires_at: 99 });
    const onDisk = await readFile(file.path, "utf8");
    expect(onDisk).not.toContain("cs");
    expect(onDisk).not.toContain("env-r1");
  });

  it("a refresh token newly given in the environment wins over older stored tokens", async () => {
    const file = new TokenFileStore({ path: join(directory, "tokens.json") });
    await new EnvCredentialStore({ env, file }).save({ refresh_token: "r2", access_token: "a2", expires_at: 99 });
    const renewed = new EnvCredentialStore({ env: { ...env, STRAVA_REFRESH_TOKEN: "env-new" }, file });
    expect(await renewed.load()).toEqual({ client_id: "1234", client_secret: "cs", refresh_token: "env-new" });
  });

  it("names the missing variables", () => {
    expect(missingStravaEnv({ STRAVA_CLIENT_ID: "1", STRAVA_REFRESH_TOKEN: " " })).toEqual(["STRAVA_CLIENT_SECRET", "STRAVA_REFRESH_TOKEN"]);
    const file = new TokenFileStore({ path: join(directory, "t.json") });
    expect(() => new EnvCredentialStore({ env: { STRAVA_CLIENT_ID: "1" }, file })).toThrow(
      "Set STRAVA_CLIENT_SECRET, STRAVA_REFRESH_TOKEN (all three of STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET, STRAVA_REFRESH_TOKEN are needed for Strava).",
    );
  });
});

describe("SecretsManagerStore against moto_server", () => {
  let moto: MotoServer;
  let admin: SecretsManagerClient;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    moto = await startMotoServer();
    Object.assign(process.env, moto.env);
    admin = new SecretsManagerClient({ region: "us-west-2" });
  }, 60_000);
  afterAll(async () => {
    process.env = savedEnv;
    await moto?.stop();
  });
  beforeEach(async () => {
    await moto.reset();
  });

  const read = async (name: string) =>
    JSON.parse((await admin.send(new GetSecretValueCommand({ SecretId: name }))).SecretString ?? "null") as Record<string, unknown>;

  it("loads the secret and writes new tokens back merged, keeping the client credentials and unknown fields", async () => {
    await admin.send(new CreateSecretCommand({
      Name: "fitness-credentials",
      SecretString: JSON.stringify({ client_id: 1234, client_secret: "cs", refresh_token: "r1", note: "kept" }),
    }));
    const store = new SecretsManagerStore({ secretName: "fitness-credentials", region: "us-west-2" });
    expect(await store.load()).toEqual({ client_id: "1234", client_secret: "cs", refresh_token: "r1" });
    await store.save({ refresh_token: "r2", access_token: "a2", expires_at: 1_800_000_000 });
    expect(await read("fitness-credentials")).toEqual({
      client_id: 1234, client_secret: "cs", refresh_token: "r2", access_token: "a2", expires_at: 1_800_000_000, note: "kept",
    });
  });

  it("a missing secret names the secret, the region and the fix", async () => {
    const store = new SecretsManagerStore({ secretName: "nope", region: "us-west-2" });
    await expect(store.load()).rejects.toThrow('The Secrets Manager secret "nope" in us-west-2 does not exist.');
    await expect(store.save({ refresh_token: "x" })).rejects.toThrow("does not exist, so new tokens cannot be written back");
  });

  it("creates the secret on save only when asked to", async () => {
    const store = new SecretsManagerStore({ secretName: "created", region: "us-west-2", createIfMissing: true });
    await store.save({ client_id: "1", client_secret: "s", refresh_token: "r" });
    expect(await read("created")).toEqual({ client_id: "1", client_secret: "s", refresh_token: "r" });
  });

  it("malformed secrets name the problem and the fields, never the values", async () => {
    await admin.send(new CreateSecretCommand({ Name: "text", SecretString: "refresh=abc" }));
    await admin.send(new CreateSecretCommand({ Name: "partial", SecretString: JSON.stringify({ client_secret: "TOPSECRET", refresh_token: 5 }) }));
    await admin.send(new CreateSecretCommand({ Name: "list", SecretString: "[]" }));
    await expect(new SecretsManagerStore({ secretName: "text", region: "us-west-2" }).load()).rejects.toThrow(
      'The Secrets Manager secret "text" in us-west-2 is not valid JSON.',
    );
    const partial = await new SecretsManagerStore({ secretName: "partial", region: "us-west-2" }).load().catch((error: Error) => error);
    expect(String(partial)).toContain('The Secrets Manager secret "partial" in us-west-2 is incomplete (missing client_id; wrong type: refresh_token (must be a string))');
    expect(String(partial)).not.toContain("TOPSECRET");
    await expect(new SecretsManagerStore({ secretName: "list", region: "us-west-2" }).load()).rejects.toThrow("must hold a JSON object, not a list");
  });

  it("an unreachable Secrets Manager is a clear store error", async () => {
    const store = new SecretsManagerStore({
      secretName: "fitness-credentials",
      region: "us-west-2",
      client: new SecretsManagerClient({ region: "us-west-2", endpoint: "http://127.0.0.1:1", maxAttempts: 1 }),
    });
    await expect(store.load()).rejects.toThrow(/Could not read the Secrets Manager secret "fitness-credentials" in us-west-2 \(/);
  });
});
