/**
 * The credential stores: the token file (0600, journaled, compare-and-swap under a lock, what killed
 * processes left behind), the environment with rotations persisted to the file, Secrets Manager against
 * a real moto_server (version stages as compare-and-swap, a pending version finished, permissions named),
 * and the records today's released version wrote, read as they are.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  ListSecretVersionIdsCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from "@aws-sdk/client-secrets-manager";
import { TokenFileStore } from "../../credentials/stores/token-file-store.ts";
import { readStravaCredentials, readTokenFile } from "../../common/settings/credential-variables.ts";
import { EnvCredentialStore } from "../../credentials/stores/environment-store.ts";
import { SecretsManagerStore } from "../../credentials/stores/secrets-manager-store.ts";
import { CredentialsMissingError, type CredentialSnapshot, type CredentialStore } from "../../credentials/credential-store.ts";
import { lineageOf } from "../../credentials/token-lineage.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { startAwsFaultProxy, type AwsFaultProxy } from "../support/aws-fault-proxy.ts";
import { stampFile } from "../support/test-clock.ts";

/** The environment store as the MCP server makes it: the STRAVA_* variables read through the settings inventory. */
function envStore(env: Record<string, string | undefined>, file: TokenFileStore): EnvCredentialStore {
  const strava = readStravaCredentials(env);
  return new EnvCredentialStore({
    clientId: strava.clientId ?? "",
    clientSecret: strava.clientSecret ?? "",
    refreshToken: strava.refreshToken ?? "",
    file,
  });
}

const signal = (): AbortSignal => AbortSignal.timeout(5_000);
const tokens = (n: number) => ({ access_token: `a${n}`, refresh_token: `r${n}`, expires_at: 1_800_000_000 + n });

/** The id of a process that has exited (what a SIGKILLed server leaves in its file names). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

async function save(store: CredentialStore, snapshot: CredentialSnapshot, n: number) {
  return store.saveTokens(snapshot, tokens(n), signal());
}

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "fitness-stores-"));
  return () => rm(directory, { recursive: true, force: true });
});

describe("TokenFileStore", () => {
  const app = { client_id: "1", client_secret: "s" };

  async function fileWith(record: Record<string, unknown>, name = "tokens.json"): Promise<TokenFileStore> {
    const path = join(directory, name);
    await writeFile(path, JSON.stringify(record), { mode: 0o600 });
    return new TokenFileStore({ path });
  }

  it("saves over the snapshot it read, keeps every other field, mode 0600, no file left beside it", async () => {
    const store = await fileWith({ ...app, refresh_token: "r0", note: "kept" });
    const first = await store.load(signal());
    const outcome = await save(store, first, 1);
    expect(outcome.saved).toBe(true);
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    const onDisk = JSON.parse(await readFile(store.path, "utf8")) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ ...app, ...tokens(1), note: "kept", ...lineageOf("r0") });
    expect((await store.load(signal())).credentials).toEqual({ ...app, ...tokens(1) });
    expect(await readdir(directory)).toEqual(["tokens.json"]);
  });

  it("compare-and-swap: a save from a snapshot the file has moved on from writes nothing and answers what it holds", async () => {
    const store = await fileWith({ ...app, refresh_token: "r0" });
    const a = await store.load(signal());
    const b = await store.load(signal());
    expect((await save(store, a, 1)).saved).toBe(true);
    const late = await save(store, b, 2);
    expect(late).toMatchObject({ saved: false, current: { credentials: { refresh_token: "r1" } } });
    expect((await store.load(signal())).credentials.refresh_token).toBe("r1");
    expect(await readdir(directory)).toEqual(["tokens.json"]);
  });

  it("concurrent saves from one snapshot: exactly one lands", async () => {
    const store = await fileWith({ ...app, refresh_token: "r0" });
    const snapshot = await store.load(signal());
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, n) => save(store, snapshot, n + 1)));
    expect(outcomes.filter((outcome) => outcome.saved)).toHaveLength(1);
    expect(await readdir(directory)).toEqual(["tokens.json"]);
  });

  it("finishes a save a killed process left (it descends from the file), and deletes stale and half-written ones", async () => {
    const store = await fileWith({ ...app, refresh_token: "r0" });
    const dead = deadPid();
    await writeFile(`${store.path}.${dead}.abc123-00000001.tmp`, JSON.stringify({ ...app, ...tokens(1), ...lineageOf("r0") }));
    await writeFile(`${store.path}.${dead}.abc123-00000002.tmp`, JSON.stringify({ ...app, ...tokens(9), ...lineageOf("r-old") }));
    await writeFile(`${store.path}.${dead}.abc123-00000003.tmp`, '{"client_id": "1", "refresh_');
    expect((await store.load(signal())).credentials).toMatchObject(tokens(1));
    expect(await readdir(directory)).toEqual(["tokens.json"]);
  });

  it("leaves the temporary file of a process that still runs alone (it is that process's to finish)", async () => {
    const store = await fileWith({ ...app, refresh_token: "r0" });
    const live = `${store.path}.${process.ppid}.abc123-00000001.tmp`;
    await writeFile(live, JSON.stringify({ ...app, ...tokens(1), ...lineageOf("r0") }));
    expect((await store.load(signal())).credentials.refresh_token).toBe("r0");
    expect((await readdir(directory)).sort()).toEqual(["tokens.json", live.slice(directory.length + 1)].sort());
  });

  it("temporary files of the previous version (no lineage): a newer one is the save it never finished, an older one is dropped", async () => {
    const store = await fileWith({ ...app, refresh_token: "r0" });
    const dead = deadPid();
    const older = `${store.path}.${dead}.0a0a0a0a.tmp`;
    // Older and newer than the token file by its own time stamp: the store compares files with files.
    const written = (await stat(store.path)).mtimeMs;
    await writeFile(older, JSON.stringify({ ...app, ...tokens(7) }));
    stampFile(older, written - 60_000);
    expect((await store.load(signal())).credentials.refresh_token).toBe("r0");
    const newer = `${store.path}.${dead}.0b0b0b0b.tmp`;
    await writeFile(newer, JSON.stringify({ ...app, ...tokens(8) }));
    stampFile(newer, (await stat(store.path)).mtimeMs + 1_000);
    expect((await store.load(signal())).credentials.refresh_token).toBe("r8");
    expect(await readdir(directory)).toEqual(["tokens.json"]);
  });

  it("takes over at once the lock of a process killed while holding it; waits for a live holder and gives up at the deadline", async () => {
    const store = await fileWith({ ...app, refresh_token: "r0" });
    const snapshot = await store.load(signal());
    await writeFile(`${store.path}.lock`, `${deadPid()}\n${hostname()}\nfeedface\n`);
    const started = performance.now();
    expect((await save(store, snapshot, 1)).saved).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
    await writeFile(`${store.path}.lock`, `${process.ppid}\n${hostname()}\nfeedface\n`);
    const stuck = await store.saveTokens(await store.load(signal()), tokens(2), AbortSignal.timeout(200)).catch((error: Error) => error);
    expect(String(stuck)).toContain(`stayed locked by process ${process.ppid} on ${hostname()}`);
    expect((await store.load(signal())).credentials.refresh_token).toBe("r1");
  });

  it("the operator's authorization replaces a looser file with a 0600 one and keeps unknown fields", async () => {
    const path = join(directory, "nested", "tokens.json");
    await mkdir(join(directory, "nested"));
    await writeFile(path, JSON.stringify({ note: "kept" }), { mode: 0o644 });
    const store = new TokenFileStore({ path });
    await store.writeAuthorization({ ...app, ...tokens(1) }, signal());
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ ...app, ...tokens(1), note: "kept" });
    await store.clearTokens(signal());
    const cleared = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(cleared).toMatchObject({ ...app, note: "kept" });
    expect(cleared).not.toHaveProperty("refresh_token");
    await expect(store.load(signal())).rejects.toThrow(CredentialsMissingError);
  });

  it("names the file and the fix when it is missing, not JSON, or incomplete", async () => {
    const path = join(directory, "tokens.json");
    const store = new TokenFileStore({ path });
    await expect(store.load(signal())).rejects.toThrow(`The token file ${path} does not exist. Run npm run authorize -- --store file`);
    await writeFile(path, "{not json");
    await expect(store.load(signal())).rejects.toThrow(`The token file ${path} is not valid JSON.`);
    await writeFile(path, JSON.stringify({ client_id: 5, refresh_token: "very-secret-refresh" }));
    const error = await store.load(signal()).catch((caught: Error) => caught);
    expect(String(error)).toContain(`The token file ${path} is incomplete (missing client_secret)`);
    expect(String(error)).not.toContain("very-secret-refresh");
    await writeFile(path, JSON.stringify({ client_id: 5, client_secret: "s", refresh_token: "  " }));
    await expect(store.load(signal())).rejects.toThrow(`The token file ${path} is incomplete (missing refresh_token)`);
  });

  it("reads a token file written by the previous version as it is, and refreshes over it", async () => {
    // Exactly what the released version's `npm run authorize -- --store file` and refresh wrote.
    const store = await fileWith({
      client_id: "1234",
      client_secret: "cs",
      refresh_token: "r0",
      access_token: "a0",
      expires_at: 1_700_000_000,
      updated_at: "2026-11-01T10:00:00.000Z",
    });
    const snapshot = await store.load(signal());
    expect(snapshot.credentials).toEqual({
      client_id: "1234",
      client_secret: "cs",
      refresh_token: "r0",
      access_token: "a0",
      expires_at: 1_700_000_000,
    });
    expect((await save(store, snapshot, 1)).saved).toBe(true);
  });

  it("defaults to FITNESS_TOKEN_FILE, else the user's config directory", () => {
    expect(readTokenFile({ FITNESS_TOKEN_FILE: "/x/t.json" })).toEqual({ path: "/x/t.json", explicit: true });
    expect(readTokenFile({ XDG_CONFIG_HOME: "/cfg" })).toEqual({ path: "/cfg/openclaw-fitness/strava-tokens.json", explicit: false });
  });
});

describe("EnvCredentialStore", () => {
  const env = { STRAVA_CLIENT_ID: "1234", STRAVA_CLIENT_SECRET: "cs", STRAVA_REFRESH_TOKEN: "env-r1" };

  it("starts from the environment and persists rotations to the file", async () => {
    const file = new TokenFileStore({ path: join(directory, "tokens.json") });
    const store = envStore(env, file);
    const first = await store.load(signal());
    expect(first.credentials).toEqual({ client_id: "1234", client_secret: "cs", refresh_token: "env-r1" });
    expect((await store.saveTokens(first, { refresh_token: "r2", access_token: "a2", expires_at: 99 }, signal())).saved).toBe(true);
    // A restart with the same environment picks up the rotated tokens.
    const again = envStore(env, file);
    expect((await again.load(signal())).credentials).toEqual({
      client_id: "1234",
      client_secret: "cs",
      refresh_token: "r2",
      access_token: "a2",
      expires_at: 99,
    });
    const onDisk = await readFile(file.path, "utf8");
    expect(onDisk).not.toContain('"cs"');
    expect(onDisk).not.toContain("env-r1");
  });

  it("two servers with the same environment: the second save from the environment's token is refused", async () => {
    const file = new TokenFileStore({ path: join(directory, "tokens.json") });
    const one = envStore(env, file);
    const two = envStore(env, new TokenFileStore({ path: file.path }));
    const [a, b] = [await one.load(signal()), await two.load(signal())];
    expect((await one.saveTokens(a, tokens(1), signal())).saved).toBe(true);
    expect(await two.saveTokens(b, tokens(2), signal())).toMatchObject({ saved: false, current: { credentials: { refresh_token: "r1" } } });
  });

  it("a refresh token newly given in the environment wins over older stored tokens", async () => {
    const file = new TokenFileStore({ path: join(directory, "tokens.json") });
    const store = envStore(env, file);
    await store.saveTokens(await store.load(signal()), { refresh_token: "r2", access_token: "a2", expires_at: 99 }, signal());
    const renewed = envStore({ ...env, STRAVA_REFRESH_TOKEN: "env-new" }, file);
    expect((await renewed.load(signal())).credentials).toEqual({ client_id: "1234", client_secret: "cs", refresh_token: "env-new" });
  });

  it("reads the file the previous version wrote for the same environment as it is", async () => {
    const path = join(directory, "tokens.json");
    await writeFile(
      path,
      JSON.stringify({
        refresh_token: "r5",
        access_token: "a5",
        expires_at: 1_700_000_000,
        env_refresh_token_sha256: sha256Hex("env-r1"),
        updated_at: "2026-11-01T10:00:00.000Z",
      }),
    );
    const store = envStore(env, new TokenFileStore({ path }));
    expect((await store.load(signal())).credentials).toEqual({
      client_id: "1234",
      client_secret: "cs",
      refresh_token: "r5",
      access_token: "a5",
      expires_at: 1_700_000_000,
    });
  });

  it("names the missing variables", () => {
    expect(readStravaCredentials({ STRAVA_CLIENT_ID: "1", STRAVA_REFRESH_TOKEN: " " }).missing).toEqual([
      "STRAVA_CLIENT_SECRET",
      "STRAVA_REFRESH_TOKEN",
    ]);
    const file = new TokenFileStore({ path: join(directory, "t.json") });
    expect(() => envStore({ STRAVA_CLIENT_ID: "1" }, file)).toThrow(
      "Set STRAVA_CLIENT_SECRET, STRAVA_REFRESH_TOKEN (all three of STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET, STRAVA_REFRESH_TOKEN are needed for Strava).",
    );
  });
});

describe("SecretsManagerStore against moto_server", () => {
  let moto: MotoServer;
  let admin: SecretsManagerClient;
  let proxy: AwsFaultProxy;
  const savedEnv = { ...process.env };
  const app = { client_id: "1234", client_secret: "cs" };
  beforeAll(async () => {
    moto = await startMotoServer();
    Object.assign(process.env, moto.env);
    admin = new SecretsManagerClient({ region: "us-west-2" });
    proxy = await startAwsFaultProxy(new URL(moto.endpoint));
  }, 60_000);
  afterAll(async () => {
    process.env = savedEnv;
    admin?.destroy();
    await proxy?.close();
    await moto?.stop();
  });
  beforeEach(async () => {
    proxy.clear();
    await moto.reset();
  });

  const store = (name = "fitness-credentials", endpoint?: string) =>
    new SecretsManagerStore({
      secretName: name,
      region: "us-west-2",
      ...(endpoint ? { client: new SecretsManagerClient({ region: "us-west-2", endpoint, maxAttempts: 1 }) } : {}),
    });
  const create = (value: unknown, name = "fitness-credentials") =>
    admin.send(new CreateSecretCommand({ Name: name, SecretString: typeof value === "string" ? value : JSON.stringify(value) }));
  const readStage = async (stage: string, name = "fitness-credentials") =>
    JSON.parse((await admin.send(new GetSecretValueCommand({ SecretId: name, VersionStage: stage }))).SecretString ?? "null") as Record<
      string,
      unknown
    >;

  it("reads the secret the previous version wrote as it is; a save stages a new version and makes it current, fields kept", async () => {
    await create({ ...app, client_id: 1234, refresh_token: "r0", note: "kept" });
    const snapshot = await store().load(signal());
    expect(snapshot.credentials).toEqual({ ...app, refresh_token: "r0" });
    expect((await save(store(), snapshot, 1)).saved).toBe(true);
    expect(await readStage("AWSCURRENT")).toEqual({ ...app, client_id: 1234, ...tokens(1), note: "kept", ...lineageOf("r0") });
    expect(await readStage("AWSPREVIOUS")).toMatchObject({ refresh_token: "r0" });
  });

  it("compare-and-swap: a save from a version that is no longer current writes nothing current and answers what is", async () => {
    await create({ ...app, refresh_token: "r0" });
    const a = await store().load(signal());
    const b = await store().load(signal());
    expect((await save(store(), a, 1)).saved).toBe(true);
    expect(await save(store(), b, 2)).toMatchObject({ saved: false, current: { credentials: { refresh_token: "r1" } } });
    expect(await readStage("AWSCURRENT")).toMatchObject({ refresh_token: "r1" });
  });

  it("finishes a save killed between its two calls (pending, descending from current); ignores a stale pending", async () => {
    await create({ ...app, refresh_token: "r0" });
    await admin.send(
      new PutSecretValueCommand({
        SecretId: "fitness-credentials",
        SecretString: JSON.stringify({ ...app, ...tokens(9), ...lineageOf("r-older") }),
        VersionStages: ["AWSPENDING"],
      }),
    );
    expect((await store().load(signal())).credentials.refresh_token).toBe("r0");
    await admin.send(
      new PutSecretValueCommand({
        SecretId: "fitness-credentials",
        SecretString: JSON.stringify({ ...app, ...tokens(1), ...lineageOf("r0") }),
        VersionStages: ["AWSPENDING"],
      }),
    );
    expect((await store().load(signal())).credentials).toMatchObject(tokens(1));
    expect(await readStage("AWSCURRENT")).toMatchObject(tokens(1));
  });

  it("a lost answer to the stage move: the retry finds its own tokens current (no stale write, no error)", async () => {
    await create({ ...app, refresh_token: "r0" });
    const through = store("fitness-credentials", proxy.url);
    const snapshot = await through.load(signal());
    proxy.inject("UpdateSecretVersionStage", "lose-answer");
    await expect(through.saveTokens(snapshot, tokens(1), signal())).rejects.toThrow(/Could not write the Secrets Manager secret/);
    expect(await readStage("AWSCURRENT")).toMatchObject(tokens(1));
    expect(await through.saveTokens(snapshot, tokens(1), signal())).toMatchObject({ saved: false, current: { credentials: tokens(1) } });
  });

  it("a save refused for a missing permission names it (UpdateSecretVersionStage after an upgrade; PutSecretValue)", async () => {
    await create({ ...app, refresh_token: "r0" });
    const through = store("fitness-credentials", proxy.url);
    const snapshot = await through.load(signal());
    proxy.inject("UpdateSecretVersionStage", "deny");
    await expect(through.saveTokens(snapshot, tokens(1), signal())).rejects.toThrow(
      'Not allowed to write the Secrets Manager secret "fitness-credentials" in us-west-2: grant the host\'s role secretsmanager:UpdateSecretVersionStage on it',
    );
    proxy.inject("PutSecretValue", "deny");
    await expect(through.saveTokens(snapshot, tokens(2), signal())).rejects.toThrow(
      "grant the host's role secretsmanager:PutSecretValue on it",
    );
    proxy.inject("GetSecretValue", "deny", 2);
    await expect(through.load(signal())).rejects.toThrow(
      'Not allowed to read the Secrets Manager secret "fitness-credentials" in us-west-2: grant the host\'s role secretsmanager:GetSecretValue',
    );
  });

  it("a Secrets Manager that never answers: the call gives up when its signal aborts, and the next one works", async () => {
    await create({ ...app, refresh_token: "r0" });
    const through = store("fitness-credentials", proxy.url);
    proxy.hangAll(true);
    const started = performance.now();
    await expect(through.load(AbortSignal.timeout(300))).rejects.toThrow(/Secrets Manager secret "fitness-credentials"/);
    expect(performance.now() - started).toBeLessThan(2_000);
    proxy.hangAll(false);
    expect((await through.load(signal())).credentials.refresh_token).toBe("r0");
  });

  it("a secret named by its ARN is read in the ARN's region, whatever region is configured", async () => {
    const europe = new SecretsManagerClient({ region: "eu-west-1" });
    try {
      const created = await europe.send(
        new CreateSecretCommand({ Name: "in-europe", SecretString: JSON.stringify({ ...app, refresh_token: "r-eu" }) }),
      );
      const byArn = store(created.ARN!);
      expect(byArn.description).toBe(`Secrets Manager secret "${created.ARN}" in eu-west-1`);
      expect((await byArn.load(signal())).credentials.refresh_token).toBe("r-eu");
    } finally {
      europe.destroy();
    }
  });

  it("a missing secret names the secret, the region and the fix", async () => {
    await expect(store("nope").load(signal())).rejects.toThrow('The Secrets Manager secret "nope" in us-west-2 does not exist.');
    await expect(store("nope").load(signal())).rejects.toThrow(CredentialsMissingError);
  });

  it("the operator's authorization creates the secret (when allowed) or updates it keeping fields; revocation clears the tokens", async () => {
    const created = new SecretsManagerStore({ secretName: "created", region: "us-west-2", createIfMissing: true });
    await created.writeAuthorization({ ...app, ...tokens(1) }, signal());
    expect(await readStage("AWSCURRENT", "created")).toEqual({ ...app, ...tokens(1) });
    await create({ ...app, refresh_token: "old", note: "kept" }, "existing");
    await store("existing").writeAuthorization({ ...app, ...tokens(2) }, signal());
    expect(await readStage("AWSCURRENT", "existing")).toEqual({ ...app, ...tokens(2), note: "kept" });
    await store("existing").clearTokens(signal());
    expect(await readStage("AWSCURRENT", "existing")).toEqual({ ...app, note: "kept", revoked_at: expect.any(String) });
    await expect(store("existing").load(signal())).rejects.toThrow(CredentialsMissingError);
    await expect(store("existing").load(signal())).rejects.toThrow(/holds no Strava grant: it was revoked at /);
    await expect(store("absent").writeAuthorization({ ...app, ...tokens(3) }, signal())).rejects.toThrow("does not exist");
    const versions = await admin.send(new ListSecretVersionIdsCommand({ SecretId: "existing" }));
    expect(versions.Versions?.length).toBe(3);
    // A new grant is no longer revoked.
    await store("existing").writeAuthorization({ ...app, ...tokens(4) }, signal());
    expect(await readStage("AWSCURRENT", "existing")).toEqual({ ...app, ...tokens(4), note: "kept" });
  });

  it("malformed secrets name the problem and the fields, never the values", async () => {
    await create("refresh=abc", "text");
    await create({ client_secret: "TOPSECRET", refresh_token: 5 }, "partial");
    await create("[]", "list");
    await expect(store("text").load(signal())).rejects.toThrow('The Secrets Manager secret "text" in us-west-2 is not valid JSON.');
    const partial = await store("partial")
      .load(signal())
      .catch((error: Error) => error);
    expect(String(partial)).toContain(
      'The Secrets Manager secret "partial" in us-west-2 is incomplete (missing client_id; wrong type: refresh_token (must be a string))',
    );
    expect(String(partial)).not.toContain("TOPSECRET");
    await expect(store("list").load(signal())).rejects.toThrow("must hold a JSON object, not a list");
  });

  it("a host with no AWS credentials at all is told where they come from", async () => {
    // The SDK's own provider chain, with every source it reads emptied (no keys, no profile files, no
    // instance metadata): what a Gateway started without a role or a profile meets.
    const saved = { ...process.env };
    for (const name of Object.keys(process.env)) if (name.startsWith("AWS_")) delete process.env[name];
    Object.assign(process.env, {
      AWS_EC2_METADATA_DISABLED: "true",
      AWS_CONFIG_FILE: "/nonexistent/config",
      AWS_SHARED_CREDENTIALS_FILE: "/nonexistent/credentials",
    });
    try {
      const bare = new SecretsManagerStore({
        secretName: "fitness-credentials",
        region: "us-west-2",
        client: new SecretsManagerClient({ region: "us-west-2", endpoint: moto.endpoint }),
      });
      await expect(bare.load(signal())).rejects.toThrow(
        'No AWS credentials to read the Secrets Manager secret "fitness-credentials" in us-west-2: give this host a role',
      );
    } finally {
      process.env = saved;
    }
  });

  it("an unreachable Secrets Manager is a clear store error", async () => {
    await expect(store("fitness-credentials", "http://127.0.0.1:1").load(signal())).rejects.toThrow(
      /Could not read the Secrets Manager secret "fitness-credentials" in us-west-2 \(GetSecretValue:/,
    );
  });
});

function sha256Hex(text: string): string {
  return lineageOf(text).replaces_refresh_token_sha256;
}
