/**
 * The token manager when several processes share one store, in one process: cores (token manager,
 * upstream client) built as each server builds them, on one real token file, against the sandbox with a
 * clock the test moves. Each process's own refresh moment, losing the race to refresh, a refresh token
 * that stays dead, a store that does not answer, Strava's "Application Status Inactive", and settling
 * on shutdown. The same scenarios with real server processes are in test/durability/.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { createToolDeps, type ToolDeps } from "../../tools/runner/create-tool-deps.ts";
import { TokenFileStore } from "../../credentials/stores/token-file-store.ts";
import { runTool } from "../../tools/runner/run-tool.ts";
import { applicationInactiveAdvice } from "../../strava/strava-errors.ts";
import { healthAnswer } from "../../credentials/credential-health.ts";
import { capturingLogger, toolNamed } from "../support/core-harness.ts";
import { testNow } from "../support/test-clock.ts";

const plenty: [number, number] = [1_000_000, 10_000_000];
let clockMs = testNow;
let sandbox: RunningSandbox;
let directory: string;
let path: string;

beforeAll(async () => {
  sandbox = await startSandbox({ clock: () => clockMs, rateLimits: { overall: plenty, read: plenty } });
});
afterAll(() => sandbox?.close());
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "fitness-sharing-"));
  path = join(directory, "tokens.json");
  await writeFile(
    path,
    JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() }),
    { mode: 0o600 },
  );
  sandbox.resetCounters();
});
afterEach(() => rm(directory, { recursive: true, force: true }));

interface Core {
  deps: ToolDeps;
  logs: string[];
  call(): Promise<{ ok: boolean; text: string }>;
}

/** One process's core on the shared token file. `random` fixes its refresh moment within the spread (1: earliest). */
function core(options: { random?: number; storeTimeoutMs?: number; timeoutMs?: number; file?: string } = {}): Core {
  const { logger, lines } = capturingLogger();
  const deps = createToolDeps({
    store: new TokenFileStore({ path: options.file ?? path }),
    logger,
    settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl, timeoutMs: options.timeoutMs ?? 5_000 },
    storeTimeoutMs: options.storeTimeoutMs ?? 1_000,
    now: () => clockMs,
    random: () => options.random ?? 0.5,
  });
  return {
    deps,
    logs: lines,
    call: async () => {
      const result = await runTool(toolNamed("get_athlete"), {}, deps);
      return { ok: result.isError !== true, text: result.content[0].text };
    },
  };
}

async function stored(file = path): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}

describe("each process's own refresh moment", () => {
  it("the process whose moment comes first refreshes; the other, later, takes its token from the store without a token request", async () => {
    const early = core({ random: 1 });
    const late = core({ random: 0 });
    expect((await early.call()).ok).toBe(true);
    expect((await late.call()).ok).toBe(true);
    const expiresAt = (await stored())["expires_at"] as number;
    expect(sandbox.counters().tokenRequests).toBe(1);

    clockMs = expiresAt * 1000 - 450_000; // between the earliest moment (10 min before) and the margin (5 min)
    expect((await early.call()).ok).toBe(true);
    expect((await late.call()).ok).toBe(true);
    expect(sandbox.counters().tokenRequests).toBe(2);

    clockMs = expiresAt * 1000 - 299_000; // the late process's moment too: the store has a newer token
    expect((await late.call()).ok).toBe(true);
    expect(sandbox.counters().tokenRequests).toBe(2);
    expect(late.logs.some((line) => line.includes('"event":"token_adopted_from_store"'))).toBe(true);
  });

  it("never later than the 5-minute margin", async () => {
    const latest = core({ random: 0 });
    expect((await latest.call()).ok).toBe(true);
    const expiresAt = (await stored())["expires_at"] as number;
    clockMs = expiresAt * 1000 - 300_000;
    expect((await latest.call()).ok).toBe(true);
    expect(sandbox.counters().tokenRequests).toBe(2);
  });
});

describe("losing the race to refresh", () => {
  it("Strava refuses the refresh token the other process spent first: the loser takes the winner's tokens, no call fails", async () => {
    const a = core();
    const b = core();
    // Both read the same refresh token; the sandbox holds the first request back so the second wins.
    sandbox.injectFault({ kind: "delay", delayMs: 200, match: "POST /oauth/token" });
    const [first, second] = await Promise.all([a.call(), b.call()]);
    expect([first, second]).toEqual([expect.objectContaining({ ok: true }), expect.objectContaining({ ok: true })]);
    expect(sandbox.counters()).toMatchObject({ tokenRequests: 2, refreshTokenRejections: 1 });
    expect(sandbox.acceptsRefreshToken((await stored())["refresh_token"] as string)).toBe(true);
    expect([...a.logs, ...b.logs].some((line) => line.includes('"event":"refresh_lost_race"'))).toBe(true);
    expect([...a.logs, ...b.logs].some((line) => line.includes("authorize again"))).toBe(false);
  });
});

describe("a dead refresh token", () => {
  it("says to authorize again only after the store kept the refused token, reports it in health, and recovers from a new authorization", async () => {
    await writeFile(
      path,
      JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: "f".repeat(40) }),
    );
    const c = core({ storeTimeoutMs: 300 });
    const failed = await c.call();
    expect(failed.ok).toBe(false);
    // The command for this very store, ready to paste.
    expect(failed.text).toContain(`authorize again (npm run authorize -- --store file --token-file ${path})`);
    expect(failed.text).not.toContain("f".repeat(40));
    expect(c.logs.some((line) => line.includes('"level":"error"') && line.includes('"event":"refresh_token_dead"'))).toBe(true);
    const health = await c.deps.tokens.health();
    expect(health).toMatchObject({ state: "needs_authorization", message: expect.stringContaining("authorize again") });
    expect(healthAnswer({ name: "x" }, health)).toMatchObject({ httpStatus: 503, body: { status: "needs_authorization" } });

    // Nothing new in the store: the next call fails at once, without asking Strava again.
    const requests = sandbox.counters().tokenRequests;
    expect((await c.call()).text).toContain("was refused by Strava and nothing has replaced it since");
    expect(sandbox.counters().tokenRequests).toBe(requests);

    // The operator authorizes again: health notices, and calls work.
    await writeFile(
      path,
      JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() }),
    );
    clockMs += 6_000;
    expect((await c.deps.tokens.health()).state).toBe("unchecked");
    expect((await c.call()).ok).toBe(true);
    expect((await c.deps.tokens.health()).state).toBe("ok");
  });
});

describe("a store that does not answer", () => {
  it("fails the waiting calls at the deadline with a clear error, and the next call after it answers again works", async () => {
    // A named pipe with no writer: reading it blocks, like a file system that stopped answering.
    const fifo = join(directory, "stuck.json");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const c = core({ storeTimeoutMs: 300, file: fifo });
    const started = performance.now();
    const stuck = await Promise.all(Array.from({ length: 5 }, () => c.call()));
    expect(performance.now() - started).toBeLessThan(2_000);
    for (const outcome of stuck)
      expect(outcome.text).toMatch(/token file .*stuck\.json did not answer within 0\.3 s \(FITNESS_STORE_TIMEOUT_MS\)/);
    expect((await c.deps.tokens.health()).state).toBe("store_unavailable");
    // The file system answers again (the blocked read gets an end of file), and the file is there.
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    await writeFile(join(directory, "real.json"), await readFile(path));
    await rename(join(directory, "real.json"), fifo);
    expect(await c.call()).toMatchObject({ ok: true });
  });
});

describe("Strava's 403 Application Status Inactive", () => {
  it("says what it is and what to do, from the API and from the token endpoint, and health reports it until it clears", async () => {
    const c = core();
    expect((await c.call()).ok).toBe(true);
    sandbox.injectFault({ kind: "application-inactive", match: "GET /athlete" });
    const api = await c.call();
    expect(api.text).toContain("Strava answered 403 Forbidden to GET /athlete: Application Status Inactive");
    expect(api.text).toContain(applicationInactiveAdvice);
    expect(await c.deps.tokens.health()).toMatchObject({ state: "application_inactive" });
    sandbox.expireAccessTokens();
    sandbox.injectFault({ kind: "application-inactive", match: "POST /oauth/token" });
    const token = await c.call();
    expect(token.text).toContain("The Strava token endpoint answered 403 Application Status Inactive");
    expect(token.text).toContain("Start or renew the subscription");
    expect(token.text).not.toContain("authorize again");
    expect((await c.call()).ok).toBe(true);
    expect((await c.deps.tokens.health()).state).toBe("ok");
  });
});

describe("settle (shutdown)", () => {
  it("waits for a refresh in progress and its save; starts no new one afterwards", async () => {
    const c = core();
    expect((await c.call()).ok).toBe(true);
    const before = (await stored())["refresh_token"];
    sandbox.expireAccessTokens();
    sandbox.injectFault({ kind: "delay", delayMs: 500, match: "POST /oauth/token" });
    const call = c.call();
    while ((sandbox.counters().byRoute["POST /oauth/token"] ?? 0) < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const settled = await c.deps.tokens.settle();
    expect(settled).toEqual({ lost: false });
    const after = (await stored())["refresh_token"] as string;
    expect(after).not.toBe(before);
    expect(sandbox.acceptsRefreshToken(after)).toBe(true);
    expect((await call).ok).toBe(true);
    sandbox.expireAccessTokens();
    expect((await c.call()).text).toContain("shutting down");
  });

  it("gives up after its bound when the store will not take the tokens, and says so in an error line", async () => {
    const c = core({ storeTimeoutMs: 200, timeoutMs: 1_000 });
    expect((await c.call()).ok).toBe(true);
    // Another live process holds the token file's lock and never lets go.
    await writeFile(`${path}.lock`, `${process.ppid}\n${(await import("node:os")).hostname()}\nfeedface\n`);
    sandbox.expireAccessTokens();
    const refused = (await c.call()).text;
    expect(refused).toContain("could not be saved");
    expect(refused).toContain(
      `did not take the new tokens within 0.2 s (FITNESS_STORE_TIMEOUT_MS). The token file ${path} stayed locked by process ${process.ppid}`,
    );
    expect((await c.deps.tokens.health()).state).toBe("unsaved");
    const started = performance.now();
    expect(await c.deps.tokens.settle()).toEqual({ lost: true });
    expect(performance.now() - started).toBeLessThan(c.deps.tokens.settleBoundMs + 500);
    expect(c.logs.some((line) => line.includes('"level":"error"') && line.includes('"event":"tokens_lost_at_exit"'))).toBe(true);
  });
});

describe("upgrades", () => {
  it("a token file and a killed save of the previous version are taken as they are", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    await writeFile(
      path,
      JSON.stringify({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        refresh_token: sandbox.refreshToken(),
        access_token: "old",
        expires_at: 1,
        updated_at: "2026-11-01T10:00:00.000Z",
      }),
    );
    await writeFile(`${path}.${dead}.0a1b2c3d.tmp`, '{\n  "client_id": "73519",\n'); // cut short by the kill
    const c = core();
    expect((await c.call()).ok).toBe(true);
    expect(await readdir(directory)).toEqual(["tokens.json"]);
    expect(sandbox.acceptsRefreshToken((await stored())["refresh_token"] as string)).toBe(true);
  });
});
