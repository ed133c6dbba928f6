/**
 * What may end a grant, as an attacker holding a stolen code or an old token would try it, through the real
 * server over HTTP (the sandbox plays Strava and counts the revocations that reach it):
 *
 * - a spent authorization code presented by another client is refused and changes nothing (only the code's
 *   own client presenting it again means its tokens leaked);
 * - an expired access token at `/revoke` is treated as unknown: 200, as RFC 7009 answers any token, and the
 *   grant goes on;
 * - a grant ended as a precaution (its code presented again by its own client, or a replaced refresh token
 *   used again) leaves the athlete's Strava authorization alone: their tokens wait out the grace period, as
 *   when an athlete leaves MCP_ATHLETES, so that a new sign-in serves them again; after it, the next start
 *   revokes them at Strava and deletes them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodeJwt, SignJWT } from "jose";
import { spawnSync } from "node:child_process";
import { baseEnv, repositoryRoot, scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { ManualOAuthClient } from "../support/manual-oauth-client.ts";
import { rawToolCall } from "../support/oauth-session.ts";
import { jonas, maya, startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";

const state = scratchDirectory();
let server: OAuthServer;
let jonasAgain: { client: ManualOAuthClient; tokens: Record<string, unknown> } | undefined;

beforeAll(async () => {
  server = await startOAuthServer({ MCP_ATHLETES: `${maya},${jonas}` }, { stateDirectory: state.path });
});

afterAll(async () => {
  await server?.stop();
  state.remove();
});

async function signedIn(): Promise<{ client: ManualOAuthClient; code: string; verifier: string; tokens: Record<string, unknown> }> {
  const client = new ManualOAuthClient(server.issuer);
  await client.register();
  const { code, verifier } = await client.code();
  const exchanged = await client.exchange(code, verifier);
  expect(exchanged.status).toBe(200);
  return { client, code, verifier, tokens: exchanged.body };
}

async function stravaRevocations(target: OAuthServer = server): Promise<number> {
  const counters = (await (await fetch(`${target.sandboxBaseUrl}/_sandbox/counters`)).json()) as { byRoute: Record<string, number> };
  return counters.byRoute["POST /oauth/revoke"] ?? 0;
}

function revoke(client: ManualOAuthClient, token: string): Promise<Response> {
  return fetch(`${server.issuer}/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, client_id: client.clientId }),
  });
}

describe("ending a grant", () => {
  it("a spent code presented by another client is refused and the grant it bought goes on", async () => {
    const { code, verifier, tokens, client } = await signedIn();
    const other = new ManualOAuthClient(server.issuer);
    await other.register();
    const stolen = await other.exchange(code, verifier);
    expect(stolen).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await rawToolCall(server.mcpUrl, tokens["access_token"] as string, "get_athlete")).status).toBe(200);
    const refreshed = await client.token({ grant_type: "refresh_token", refresh_token: tokens["refresh_token"] as string });
    expect(refreshed.status).toBe(200);
  });

  it("an expired access token at /revoke is unknown: 200, and the grant goes on", async () => {
    const { client, tokens } = await signedIn();
    const access = tokens["access_token"] as string;
    // An access token of this grant that expired hours ago (as a leaked log would hold it), signed with the server's key.
    const issuedAt = decodeJwt(access).iat as number;
    const expired = await new SignJWT({ ...decodeJwt(access), iat: issuedAt - 7200, exp: issuedAt - 3600 })
      .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
      .sign(server.signingKey());
    const answer = await revoke(client, expired);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({});
    expect((await rawToolCall(server.mcpUrl, access, "get_athlete")).status).toBe(200);
  });

  it("a code replayed by its own client ends its grant, and the athlete's Strava tokens wait out the grace period", async () => {
    await server.signIn(jonas);
    const { client, code, verifier, tokens } = await signedIn();
    const jonasFile = join(state.path, "athletes", `${jonas}.json`);
    expect(existsSync(jonasFile)).toBe(true);
    const revocationsBefore = await stravaRevocations();

    const replayed = await client.exchange(code, verifier);
    expect(replayed).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await rawToolCall(server.mcpUrl, tokens["access_token"] as string, "get_athlete")).status).toBe(401);
    const ended = await server.child.waitForEvent("athlete_grants_ended", 5_000, (line) => line["athlete"] === jonas);
    expect(ended["level"]).toBe("warn");
    expect(String(ended["message"])).toMatch(
      new RegExp(
        `^Every grant of athlete ${jonas} here ended as a precaution \\(an authorization code was presented again\\)\\. ` +
          `Their Strava tokens are kept until \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, then revoked at Strava and deleted, unless they sign in again before\\. ` +
          `To do it now: npm run oauth-admin -- forget ${jonas}, run with the server's own store settings \\(FITNESS_OAUTH_DIR, or MCP_OAUTH_TABLE with MCP_SIGNING_KEY_SECRET and AWS_REGION\\)$`,
      ),
    );
    expect(existsSync(jonasFile)).toBe(true);
    expect(await stravaRevocations()).toBe(revocationsBefore);

    // A new sign-in serves the athlete again, on the tokens kept.
    jonasAgain = await signedIn();
    expect((await rawToolCall(server.mcpUrl, jonasAgain.tokens["access_token"] as string, "get_athlete")).status).toBe(200);
  });

  it("a replaced refresh token used again ends its grant the same way", async () => {
    await server.signIn(jonas);
    const { client, tokens } = await signedIn();
    // His grant of the sign-in before is revoked by its client (while this one goes on), so that this one is his last.
    if (jonasAgain === undefined) throw new Error("the test before did not sign Jonas in again");
    expect((await revoke(jonasAgain.client, jonasAgain.tokens["refresh_token"] as string)).status).toBe(200);
    const first = tokens["refresh_token"] as string;
    const second = (await client.token({ grant_type: "refresh_token", refresh_token: first })).body["refresh_token"] as string;
    await client.token({ grant_type: "refresh_token", refresh_token: second });
    const revocationsBefore = await stravaRevocations();
    const reused = await client.token({ grant_type: "refresh_token", refresh_token: first });
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    await server.child.waitForEvent("refresh_token_reuse", 5_000);
    expect(existsSync(join(state.path, "athletes", `${jonas}.json`))).toBe(true);
    expect(await stravaRevocations()).toBe(revocationsBefore);
    // The operator sees it, and until when.
    const listed = spawnSync(process.execPath, ["--import", "tsx", "authorization/oauth-admin-cli.ts", "athletes"], {
      cwd: repositoryRoot,
      env: baseEnv({ FITNESS_OAUTH_DIR: state.path, MCP_ATHLETES: `${maya},${jonas}` }),
      encoding: "utf8",
    });
    expect(listed.stdout).toMatch(
      new RegExp(
        `  ${jonas}  admitted, 0 grants; grants ended as a precaution at \\S+Z: tokens revoked and deleted after \\S+Z unless they sign in again`,
      ),
    );
  });
});

describe("after the grace period", () => {
  it("the next start revokes the athlete's Strava grant and deletes their tokens; one who signed in again stays", async () => {
    await server.stop();
    // Jonas's grants ended as a precaution eight days ago (the grace period is seven) and he has none now;
    // Maya's ended as long ago, but she signed in again since.
    for (const grant of readdirSync(join(state.path, "grants"))) {
      const path = join(state.path, "grants", grant);
      const record = JSON.parse(readFileSync(path, "utf8")) as { athlete_id: string };
      if (record.athlete_id === jonas) rmSync(path);
    }
    const eightDaysAgo = String(Date.now() - 8 * 86_400_000);
    writeFileSync(join(state.path, "athletes", `${jonas}.grants-ended`), eightDaysAgo);
    writeFileSync(join(state.path, "athletes", `${maya}.grants-ended`), eightDaysAgo);
    server = await startOAuthServer({ MCP_ATHLETES: `${maya},${jonas}` }, { stateDirectory: state.path });
    const disconnected = await server.child.waitForEvent("athlete_disconnected", 10_000, (line) => line["athlete"] === jonas);
    expect(String(disconnected["why"])).toMatch(/grace period/);
    expect(existsSync(join(state.path, "athletes", `${jonas}.json`))).toBe(false);
    expect(await stravaRevocations()).toBe(1);
    expect(existsSync(join(state.path, "athletes", `${maya}.json`))).toBe(true);
    expect(existsSync(join(state.path, "athletes", `${maya}.grants-ended`))).toBe(false);
  });
});
