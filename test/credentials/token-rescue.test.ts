/**
 * The rescue copy of new tokens: where its directory may be (memory-backed by default, this user's only),
 * and the store wrapper against a real moto_server: the copy is there while a save is unanswered and gone
 * once it is answered; a later load (another process on this machine) finishes the save only when the
 * secret still holds the refresh token the copy replaces, and keeps it a day otherwise; a directory that
 * fails (or is swapped for a link) never fails a save, and no copy is claimed that was not written. The same with real server processes killed mid-save is test/durability/rescue.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { statfsSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { chooseRescueDirectory, TokenRescueDirectory } from "../../credentials/rescue/rescue-directory.ts";
import { RescuingCredentialStore, tokenRescue, unmatchedCopyRetentionMs } from "../../credentials/rescue/rescuing-store.ts";
import { SecretsManagerStore } from "../../credentials/stores/secrets-manager-store.ts";
import { ConfigurationError } from "../../common/configuration-error.ts";
import { readRescueDirectory } from "../../common/settings/credential-variables.ts";
import { sha256Hex } from "../../common/digests.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { startAwsFaultProxy, type AwsFaultProxy } from "../support/aws-fault-proxy.ts";
import { capturingLogger } from "../support/core-harness.ts";
import { writeCurrentSecret } from "../support/secret-writer.ts";
import { stampFile } from "../support/test-clock.ts";

const signal = (): AbortSignal => AbortSignal.timeout(5_000);
const tokens = (n: number) => ({ access_token: `access-${n}-secret`, refresh_token: `refresh-${n}-secret`, expires_at: 1_800_000_000 + n });
const app = { client_id: "1234", client_secret: "client-secret-value" };

/**
 * A place on a disk, to show that the defaults pass it over: the temporary directory, unless it is in
 * memory itself (as on distributions that mount /tmp as tmpfs), else the checkout's ignored cache.
 */
const diskBacked = [tmpdir(), fileURLToPath(new URL("../../.cache", import.meta.url))].find((path) => {
  try {
    return ![0x01021994, 0x858458f6].includes(Number(statfsSync(path).type));
  } catch {
    return false;
  }
});

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), "fitness-rescue-"));
  return () => rm(scratch, { recursive: true, force: true });
});

describe("where the copy may be kept", () => {
  it("FITNESS_TOKEN_RESCUE_DIR=off: no copy, nothing to warn about", () => {
    expect(chooseRescueDirectory(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: "off" }))).toEqual({
      directory: undefined,
      reason: "FITNESS_TOKEN_RESCUE_DIR is off",
      quiet: true,
    });
  });

  it("a configured directory is created 0700 (parents too); a relative one is refused, naming the variable", async () => {
    const path = join(scratch, "a", "b");
    const choice = chooseRescueDirectory(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: path }));
    expect(choice.directory?.path).toBe(path);
    expect((await stat(path)).mode & 0o777).toBe(0o700);
    expect(() => chooseRescueDirectory(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: "rescue" }))).toThrow(ConfigurationError);
    expect(() => chooseRescueDirectory(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: "rescue" }))).toThrow(
      'FITNESS_TOKEN_RESCUE_DIR must be an absolute path (or "off"); got "rescue".',
    );
  });

  it.skipIf(process.getuid?.() !== 0)("a directory another user owns is refused (needs root to make one: skipped otherwise)", async () => {
    const path = join(scratch, "theirs");
    await mkdir(path, { mode: 0o700 });
    await chown(path, 4321, 4321);
    expect(() => chooseRescueDirectory(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: path }))).toThrow(
      `The token rescue directory ${path} belongs to user 4321, not to this user (0).`,
    );
  });

  it("a directory others may enter is refused with the fix", async () => {
    const path = join(scratch, "open");
    await mkdir(path, { mode: 0o755 });
    expect(() => chooseRescueDirectory(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: path }))).toThrow(
      `The token rescue directory ${path} lets other users in (permissions 755). Use a directory that belongs to this user with permissions 0700 (chmod 700 ${path}), or set FITNESS_TOKEN_RESCUE_DIR=off.`,
    );
  });

  it("a configured directory inside one that others may write to is refused, naming it; a sticky one (like /tmp) is fine", async () => {
    const open = join(scratch, "open");
    await mkdir(open);
    await chmod(open, 0o777);
    expect(() => chooseRescueDirectory(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: join(open, "rescue") }))).toThrow(
      `The token rescue directory ${join(open, "rescue")} is inside ${open}, which others may write to (permissions 777): they could swap it for theirs.`,
    );
    await chmod(open, 0o775);
    expect(() => chooseRescueDirectory(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: join(open, "rescue") }))).toThrow(
      `is inside ${open}, which group ${(await stat(open)).gid} may write to (permissions 775): they could swap it for theirs. Remove that write permission (chmod go-w ${open})`,
    );
    await chmod(open, 0o1777);
    expect(chooseRescueDirectory(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: join(open, "rescue") })).directory?.path).toBe(
      join(open, "rescue"),
    );
  });

  it("by default only in memory: $XDG_RUNTIME_DIR/fitness-coach on tmpfs, else /dev/shm/fitness-coach-<uid>", async () => {
    const shm = await mkdtemp("/dev/shm/fitness-rescue-test-");
    try {
      const runtime = join(shm, "runtime");
      await mkdir(runtime, { mode: 0o700 });
      const chosen = chooseRescueDirectory(readRescueDirectory({ XDG_RUNTIME_DIR: runtime }), shm);
      expect(chosen.directory?.path).toBe(join(runtime, "fitness-coach"));
      expect((await stat(join(runtime, "fitness-coach"))).mode & 0o777).toBe(0o700);
      // No runtime directory (cron, a system service, a container): the per-user one in /dev/shm.
      const fallback = chooseRescueDirectory(readRescueDirectory({}), shm);
      expect(fallback.directory?.path).toBe(join(shm, `fitness-coach-${process.getuid?.()}`));
      expect((await stat(join(shm, `fitness-coach-${process.getuid?.()}`))).mode & 0o777).toBe(0o700);
    } finally {
      await rm(shm, { recursive: true, force: true });
    }
  });

  it.skipIf(diskBacked === undefined)(
    "never on a disk by default: a disk-backed runtime and /dev/shm are passed over, with one warning saying what to set (SKIPPED when neither the temporary directory nor the checkout is on a disk)",
    async () => {
      const disk = await mkdtemp(join(diskBacked!, "fitness-rescue-disk-"));
      try {
        const none = chooseRescueDirectory(readRescueDirectory({ XDG_RUNTIME_DIR: disk }), disk);
        expect(none.directory).toBeUndefined();
        expect(none).toMatchObject({ quiet: false });
        expect("reason" in none && none.reason).toBe(
          `${disk} is not a memory-backed file system; ${disk} is not a memory-backed file system. Set FITNESS_TOKEN_RESCUE_DIR to a directory only this user can enter (or to "off")`,
        );
        const missing = chooseRescueDirectory(readRescueDirectory({}), join(disk, "no-such-shm"));
        expect("reason" in missing && missing.reason).toMatch(/^\S+no-such-shm does not exist\. /);
        const { logger, lines } = capturingLogger();
        const store = {
          description: "a test store",
          load: () => Promise.reject(new Error("unused")),
          saveTokens: () => Promise.reject(new Error("unused")),
        };
        expect(tokenRescue(readRescueDirectory({ FITNESS_TOKEN_RESCUE_DIR: "off" }), logger)(store)).toBe(store);
        expect(lines).toEqual([]);
        const unavailable = tokenRescue(readRescueDirectory({ XDG_RUNTIME_DIR: disk, FITNESS_TOKEN_RESCUE_DIR: "" }), logger, disk);
        expect(unavailable(store)).toBe(store);
        expect(lines.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(["token_rescue_unavailable"]);
      } finally {
        await rm(disk, { recursive: true, force: true });
      }
    },
  );
});

describe("RescuingCredentialStore on Secrets Manager (moto)", () => {
  let moto: MotoServer;
  let proxy: AwsFaultProxy;
  let admin: SecretsManagerClient;
  let rescueDir: string;
  const name = "fitness-credentials";

  beforeAll(async () => {
    moto = await startMotoServer();
    proxy = await startAwsFaultProxy(new URL(moto.endpoint));
    admin = new SecretsManagerClient({
      region: "us-west-2",
      endpoint: moto.endpoint,
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
    });
  }, 60_000);
  afterAll(async () => {
    admin?.destroy();
    await proxy?.close();
    await moto?.stop();
  });
  beforeEach(async () => {
    proxy.clear();
    await moto.reset();
    await admin.send(new CreateSecretCommand({ Name: name, SecretString: JSON.stringify({ ...app, refresh_token: "refresh-0-secret" }) }));
    rescueDir = join(scratch, "rescue");
  });

  /** One process's store: Secrets Manager through the fault proxy, with the copy in `rescueDir`. */
  function processStore() {
    const { logger, lines } = capturingLogger();
    const inner = new SecretsManagerStore({
      secretName: name,
      region: "us-west-2",
      client: new SecretsManagerClient({
        region: "us-west-2",
        endpoint: proxy.url,
        maxAttempts: 1,
        credentials: { accessKeyId: "test", secretAccessKey: "test" },
      }),
    });
    const store = new RescuingCredentialStore(inner, TokenRescueDirectory.open(rescueDir, { createParents: true }), logger);
    return { store, lines };
  }
  const current = async () =>
    JSON.parse(
      (await admin.send(new GetSecretValueCommand({ SecretId: name, VersionStage: "AWSCURRENT" }))).SecretString ?? "{}",
    ) as Record<string, unknown>;

  /** Leaves the copy a process killed mid-save leaves: its save of `n` (over the secret as it is) never answered. */
  async function copyLeftBy(n: number) {
    const killed = processStore();
    const snapshot = await killed.store.load(signal());
    proxy.inject("PutSecretValue", "hang");
    await expect(killed.store.saveTokens(snapshot, tokens(n), AbortSignal.timeout(300))).rejects.toThrow(/Secrets Manager secret/);
    const files = await readdir(rescueDir);
    expect(files).toHaveLength(1);
    return { path: join(rescueDir, files[0]!), killed: killed.store, snapshot };
  }

  it("a save gone unanswered leaves a 0600 copy of the new tokens in the 0700 directory, never the client secret; an answered save leaves none", async () => {
    const { path } = await copyLeftBy(1);
    expect((await stat(rescueDir)).mode & 0o777).toBe(0o700);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const text = await readFile(path, "utf8");
    expect(JSON.parse(text)).toMatchObject({
      ...tokens(1),
      replaces_sha256: sha256Hex("refresh-0-secret"),
      store: `Secrets Manager secret "${name}" in us-west-2`,
    });
    expect(text).not.toContain(app.client_secret);
    expect(text).not.toContain("refresh-0-secret");

    await rm(path);
    const { store } = processStore();
    expect((await store.saveTokens(await store.load(signal()), tokens(2), signal())).saved).toBe(true);
    expect(await readdir(rescueDir)).toEqual([]);
  });

  it("the next process's load saves the copy, says so without a token, and the killed process's retry counts it as its own save", async () => {
    const left = await copyLeftBy(1);
    expect(await current()).toMatchObject({ refresh_token: "refresh-0-secret" });
    const next = processStore();
    expect((await next.store.load(signal())).credentials).toMatchObject(tokens(1));
    expect(await current()).toMatchObject({ ...app, ...tokens(1) });
    expect(await readdir(rescueDir)).toEqual([]);
    const rescued = next.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line["event"] === "tokens_rescued");
    expect(rescued).toHaveLength(1);
    expect(String(rescued[0]!["message"])).toContain(rescueDir);
    for (const line of next.lines) expect(line).not.toMatch(/secret"|-secret/);
    // Had the first process lived on (its store only slow), its retry finds its own tokens stored: saved.
    expect(await left.killed.saveTokens(left.snapshot, tokens(1), signal())).toMatchObject({
      saved: false,
      current: { credentials: tokens(1) },
    });
    expect(await readdir(rescueDir)).toEqual([]);
  });

  it("a copy whose tokens landed after all is removed without a write; one the store has moved past is kept a day, then removed", async () => {
    const puts = (): number => proxy.calls()["PutSecretValue"] ?? 0;
    await copyLeftBy(1);
    await writeCurrentSecret(admin, name, { ...app, ...tokens(1) }); // the killed process's save had landed
    let before = puts();
    await processStore().store.load(signal());
    expect(await readdir(rescueDir)).toEqual([]);
    expect(puts()).toBe(before);

    const { path } = await copyLeftBy(2);
    await writeCurrentSecret(admin, name, { ...app, ...tokens(9) }); // another instance (or a new authorization) came first
    before = puts();
    const later = processStore();
    expect((await later.store.load(signal())).credentials).toMatchObject(tokens(9));
    expect(puts()).toBe(before);
    expect(await current()).toMatchObject(tokens(9));
    // Kept for a day: only the description tells stores apart, and another of the same description may need it.
    expect(await readdir(rescueDir)).toHaveLength(1);
    const copy = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...copy, written_at: Date.now() - unmatchedCopyRetentionMs - 60_000 }));
    await later.store.load(signal());
    expect(await readdir(rescueDir)).toEqual([]);
    expect(later.lines.filter((line) => line.includes('"event":"token_rescue_dropped"'))).toHaveLength(1);
    expect(puts()).toBe(before);
  });

  it("a process does not finish its own copy (its own retry does), and says where a copy is only while there is one", async () => {
    const own = processStore();
    const snapshot = await own.store.load(signal());
    proxy.inject("PutSecretValue", "hang");
    await expect(own.store.saveTokens(snapshot, tokens(1), AbortSignal.timeout(300))).rejects.toThrow(/Secrets Manager secret/);
    expect(own.store.keptCopyOf(tokens(1))).toBe(rescueDir);
    const puts = proxy.calls()["PutSecretValue"] ?? 0;
    expect((await own.store.load(signal())).credentials.refresh_token).toBe("refresh-0-secret");
    expect(proxy.calls()["PutSecretValue"]).toBe(puts);
    expect(await readdir(rescueDir)).toHaveLength(1);
    expect((await own.store.saveTokens(snapshot, tokens(1), signal())).saved).toBe(true);
    expect(own.store.keptCopyOf(tokens(1))).toBeUndefined();
    expect(await readdir(rescueDir)).toEqual([]);
  });

  it("copies chained by two kills are saved in order", async () => {
    const { store } = processStore();
    // A store reads only its own copies: names start with a digest of its description.
    const prefix = `${sha256Hex(store.description).slice(0, 16)}.`;
    const dir = TokenRescueDirectory.open(rescueDir, { createParents: true });
    const written = Date.now();
    // Named so that the names sort the wrong way round: the order comes from when each was written.
    dir.keep(`${prefix}a.json`, {
      store: store.description,
      replacesSha256: sha256Hex("refresh-1-secret"),
      tokens: tokens(2),
      writtenAt: written - 1_000,
    });
    dir.keep(`${prefix}b.json`, {
      store: store.description,
      replacesSha256: sha256Hex("refresh-0-secret"),
      tokens: tokens(1),
      writtenAt: written - 2_000,
    });
    dir.keep("0123456789abcdef.c.json", {
      store: "another store",
      replacesSha256: sha256Hex("refresh-0-secret"),
      tokens: tokens(3),
      writtenAt: written,
    });
    expect((await store.load(signal())).credentials).toMatchObject(tokens(2));
    expect(await current()).toMatchObject(tokens(2));
    expect(await readdir(rescueDir)).toEqual(["0123456789abcdef.c.json"]);
  });

  it("at start, copies waiting for another store are said (count and store), never read as this store's", async () => {
    const { store, lines } = processStore();
    const dir = TokenRescueDirectory.open(rescueDir, { createParents: true });
    dir.keep("0123456789abcdef.c.json", {
      store: "another store",
      replacesSha256: sha256Hex("refresh-0-secret"),
      tokens: tokens(3),
      writtenAt: Date.now(),
    });
    await store.finishLeftCopies(signal());
    const said = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line["event"] === "token_rescue_others_waiting");
    expect(said).toHaveLength(1);
    expect(String(said[0]!["message"])).toBe(
      `1 kept token copy waits in ${rescueDir} for another store (another store): a process reading that store saves it when it starts. If that store is gone, remove the files.`,
    );
    expect(await current()).toMatchObject({ refresh_token: "refresh-0-secret" });
    for (const line of lines) expect(line).not.toContain("-secret");
  });

  it("a half-written copy is left alone for a minute, then removed; a directory that breaks costs the copy, not the save", async () => {
    const { store, lines } = processStore();
    const prefix = `${sha256Hex(store.description).slice(0, 16)}.`;
    await mkdir(rescueDir, { recursive: true, mode: 0o700 });
    const half = join(rescueDir, `${prefix}half.json`);
    await writeFile(half, '{"store":"x","replaces', { mode: 0o600 });
    stampFile(half, Date.now()); // written now on the store's clock (the kernel stamps real time, which faketime does not move)
    await store.load(signal());
    expect(await readdir(rescueDir)).toEqual([`${prefix}half.json`]);
    stampFile(half, Date.now() - 120_000);
    await store.load(signal());
    expect(await readdir(rescueDir)).toEqual([]);
    expect(lines.some((line) => line.includes("token_rescue_unreadable"))).toBe(true);

    await rm(rescueDir, { recursive: true });
    await writeFile(rescueDir, "not a directory");
    const outcome = await store.saveTokens(await store.load(signal()), tokens(3), signal());
    expect(outcome.saved).toBe(true);
    expect(await current()).toMatchObject(tokens(3));
    expect(lines.filter((line) => line.includes("token_rescue_failed"))).toHaveLength(1);
    for (const line of lines) expect(line).not.toContain("-secret");
    // And a save that then goes unanswered does not claim a copy that was never written.
    proxy.inject("PutSecretValue", "hang");
    await expect(store.saveTokens(await store.load(signal()), tokens(4), AbortSignal.timeout(300))).rejects.toThrow(
      /Secrets Manager secret/,
    );
    expect(store.keptCopyOf(tokens(4))).toBeUndefined();
  });

  it("a directory swapped for a link to someone else's after it was opened gets no copy", async () => {
    const { store, lines } = processStore();
    const elsewhere = join(scratch, "elsewhere");
    await mkdir(elsewhere, { mode: 0o777 });
    await rm(rescueDir, { recursive: true });
    await symlink(elsewhere, rescueDir);
    expect((await store.saveTokens(await store.load(signal()), tokens(1), signal())).saved).toBe(true);
    expect(await readdir(elsewhere)).toEqual([]);
    const failed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line["event"] === "token_rescue_failed");
    expect(failed).toHaveLength(1);
    expect(String(failed[0]!["message"])).toContain(`The token rescue directory ${rescueDir} is a symbolic link.`);
  });

  it("a copy lost with its directory (emptied at logout) is not claimed when the retry cannot write it again", async () => {
    rescueDir = join(scratch, "session", "rescue");
    const { store, lines } = processStore();
    const snapshot = await store.load(signal());
    proxy.inject("PutSecretValue", "hang");
    await expect(store.saveTokens(snapshot, tokens(1), AbortSignal.timeout(300))).rejects.toThrow(/Secrets Manager secret/);
    expect(store.keptCopyOf(tokens(1))).toBe(rescueDir);
    await rm(join(scratch, "session"), { recursive: true });
    proxy.inject("PutSecretValue", "hang");
    await expect(store.saveTokens(snapshot, tokens(1), AbortSignal.timeout(300))).rejects.toThrow(/Secrets Manager secret/);
    expect(store.keptCopyOf(tokens(1))).toBeUndefined();
    const failed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line["event"] === "token_rescue_failed");
    expect(String(failed[0]?.["message"])).toContain(`${join(scratch, "session")} does not exist`);
  });

  it("a rewrite of a copy (the save's retry) leaves one file, with the tokens, and no temporary one", async () => {
    const { store } = processStore();
    const snapshot = await store.load(signal());
    proxy.inject("PutSecretValue", "hang");
    await expect(store.saveTokens(snapshot, tokens(1), AbortSignal.timeout(300))).rejects.toThrow(/Secrets Manager secret/);
    const [first] = await readdir(rescueDir);
    proxy.inject("PutSecretValue", "hang");
    await expect(store.saveTokens(snapshot, tokens(1), AbortSignal.timeout(300))).rejects.toThrow(/Secrets Manager secret/);
    expect(await readdir(rescueDir)).toEqual([first]);
    expect(JSON.parse(await readFile(join(rescueDir, first!), "utf8"))).toMatchObject(tokens(1));
  });
});
