/**
 * The token manager (credentials/token-manager.ts) by itself, on a real token file in a temporary directory,
 * with the sandbox as Strava and a clock the test moves: the first call refreshes and saves before it answers
 * (the rotated refresh token is durable before it is used); a token before its moment is answered from memory;
 * callers share one refresh; a process that loses the race takes on the winner's tokens; a refresh token Strava
 * refuses and nothing replaces is dead (said to the front end once, never spent again, until the store holds a
 * new one); shutdown settles and refuses new refreshes until resumed; Strava switching the application off shows
 * in health. No token appears in a log line.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpSender } from "../../common/upstream/http-exchange.ts";
import { TokenFileStore } from "../../credentials/stores/token-file-store.ts";
import { TokenManager } from "../../credentials/token-manager.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { RefreshTokenRejectedError } from "../../strava/strava-errors.ts";
import { capturingLogger } from "../support/core-harness.ts";
import { testNow } from "../support/test-clock.ts";

let clockMs = testNow;
let sandbox: RunningSandbox;
let directory: string;
let path: string;

beforeAll(async () => {
  sandbox = await startSandbox({ clock: () => clockMs });
});
afterAll(() => sandbox?.close());
beforeEach(async () => {
  clockMs = testNow;
  directory = await mkdtemp(join(tmpdir(), "token-manager-"));
  path = join(directory, "tokens.json");
  await writeFile(
    path,
    JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() }),
    { mode: 0o600 },
  );
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A token manager as a server builds one, on the test's token file, with its log lines kept. */
function manager(options: { onRefreshTokenDead?: () => Promise<void> } = {}) {
  const { logger, lines } = capturingLogger();
  const tokens = new TokenManager({
    store: new TokenFileStore({ path }),
    tokenUrl: sandbox.tokenUrl,
    timeoutMs: 5_000,
    storeTimeoutMs: 1_000,
    logger,
    http: createHttpSender(),
    now: () => clockMs,
    random: () => 0.5,
    onRefreshTokenDead: options.onRefreshTokenDead,
  });
  const events = (event: string) =>
    lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line["event"] === event);
  return { tokens, lines, events };
}

const tokenRequests = (): number => sandbox.counters().tokenRequests;
const stored = async (): Promise<Record<string, unknown>> => JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;

describe("a refresh", () => {
  it("saves the rotated tokens before answering, and logs that it did, never the tokens", async () => {
    const spent = sandbox.refreshToken();
    const { tokens, lines, events } = manager();
    const accessToken = await tokens.accessToken();
    const file = await stored();
    expect(file["access_token"]).toBe(accessToken);
    expect(file["refresh_token"]).toBe(sandbox.refreshToken());
    expect(file["refresh_token"]).not.toBe(spent);
    expect(sandbox.acceptsRefreshToken(spent)).toBe(false);
    expect(events("token_refreshed")).toEqual([
      expect.objectContaining({ store: `token file ${path}`, refresh_token_rotated: true, save_ms: expect.any(Number) }),
    ]);
    for (const secret of [accessToken, spent, String(file["refresh_token"]), sandbox.clientSecret]) {
      expect(lines.some((line) => line.includes(secret))).toBe(false);
    }
    expect((await tokens.health()).state).toBe("ok");
  });

  it("answers from memory until this process's moment, and refreshes once it has come", async () => {
    const { tokens } = manager();
    const first = await tokens.accessToken();
    const requests = tokenRequests();
    expect(await tokens.accessToken()).toBe(first);
    expect(tokenRequests()).toBe(requests);
    // Six hours later the token is past its margin: a refresh.
    clockMs += 6 * 3_600_000;
    await tokens.accessToken();
    expect(tokenRequests()).toBe(requests + 1);
  });

  it("is shared by every caller waiting at once", async () => {
    const { tokens } = manager();
    const requests = tokenRequests();
    const answers = await Promise.all(Array.from({ length: 10 }, () => tokens.accessToken()));
    expect(new Set(answers).size).toBe(1);
    expect(tokenRequests()).toBe(requests + 1);
  });

  it("lost to another process on the same store: the winner's tokens are taken on, nothing is written over them", async () => {
    const one = manager();
    const other = manager();
    const [a, b] = await Promise.all([one.tokens.accessToken(), other.tokens.accessToken()]);
    expect(a).toBe(b);
    expect([...one.events("refresh_lost_race"), ...other.events("refresh_lost_race")]).toHaveLength(1);
    expect((await stored())["refresh_token"]).toBe(sandbox.refreshToken());
  });

  it("after a 401, a token another caller already replaced is handed on; the rejected one gets one shared refresh", async () => {
    const { tokens } = manager();
    const first = await tokens.accessToken();
    // Strava stops accepting it (here: every access token issued so far expires), so a refresh brings a new one;
    // moving the clock instead would depend on the tokens earlier tests left in the sandbox.
    sandbox.expireAccessTokens();
    const renewed = await tokens.renewAfterRejection(first);
    expect(renewed.issuedNow).toBe(true);
    expect(renewed.accessToken).not.toBe(first);
    const requests = tokenRequests();
    expect(await tokens.renewAfterRejection(first)).toEqual({ accessToken: renewed.accessToken, issuedNow: true });
    expect(tokenRequests()).toBe(requests);
  });
});

describe("a refresh token that is dead", () => {
  it("says to authorize again, tells the front end once, and is never spent again until the store holds another", async () => {
    await writeFile(
      path,
      JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: "dead-token" }),
    );
    let told = 0;
    const { tokens, events } = manager({ onRefreshTokenDead: async () => void told++ });
    const refusal = await tokens.accessToken().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RefreshTokenRejectedError);
    expect((refusal as Error).message).toContain("npm run authorize -- --store file --token-file");
    expect(told).toBe(1);
    expect(events("refresh_token_dead")).toHaveLength(1);
    expect((await tokens.health()).state).toBe("needs_authorization");
    const requests = tokenRequests();
    const again = await tokens.accessToken().catch((error: unknown) => error);
    expect((again as Error).message).toContain("was refused by Strava and nothing has replaced it since");
    expect(tokenRequests()).toBe(requests);
    expect(told).toBe(2);
    // The operator authorizes again: health reads the store and says so.
    await writeFile(
      path,
      JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() }),
    );
    clockMs += 5_000;
    expect((await tokens.health()).state).toBe("unchecked");
    await tokens.accessToken();
    expect((await tokens.health()).state).toBe("ok");
  });

  it("a failure of the front end's handling is logged, and the call still fails with the refusal", async () => {
    await writeFile(
      path,
      JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: "dead-token" }),
    );
    const { tokens, events } = manager({
      onRefreshTokenDead: async () => {
        throw new Error("the grant store did not answer");
      },
    });
    expect(await tokens.accessToken().catch((error: unknown) => error)).toBeInstanceOf(RefreshTokenRejectedError);
    expect(events("refresh_token_dead_not_handled")[0]).toMatchObject({ message: "the grant store did not answer" });
  });
});

describe("shutdown and health", () => {
  it("settle holds nothing unsaved when no refresh runs, and refuses new refreshes until resumed", async () => {
    const { tokens } = manager();
    expect(await tokens.settle()).toEqual({ lost: false });
    expect(tokens.settleBoundMs).toBe(5_000 + 2 * 1_000);
    await expect(tokens.accessToken()).rejects.toThrow(
      "The server is shutting down; it starts no new token refresh. Try again once it is back.",
    );
    tokens.resume();
    expect(await tokens.accessToken()).toEqual(expect.any(String));
  });

  it("Strava switching the application off shows in health, logged once, until a normal answer comes again", async () => {
    const { tokens, events } = manager();
    expect((await tokens.health()).state).toBe("unchecked");
    tokens.noteApplicationInactive(true, "Application Status Inactive.");
    tokens.noteApplicationInactive(true, "Application Status Inactive.");
    const health = await tokens.health();
    expect(health).toMatchObject({ state: "application_inactive", message: "Application Status Inactive." });
    expect(events("application_inactive")).toHaveLength(1);
    tokens.noteApplicationInactive(false);
    expect((await tokens.health()).state).toBe("ok");
  });
});
