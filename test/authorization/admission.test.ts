/**
 * Admission holds at every step, through the real server over HTTP and the operator's command:
 *
 * - restarted without an athlete in MCP_ATHLETES, the server refuses that athlete's access token and
 *   refresh token at once and revokes their grants, keeps their Strava tokens for the grace period, and
 *   says at start who waits and until when; admitted again, they sign in and are served;
 * - after the grace period the tokens are revoked at Strava and deleted at the next start; the operator's
 *   `npm run oauth-admin -- forget` does it at once;
 * - on loopback without MCP_ATHLETES, `npm run oauth-admin -- reset-owner` evicts the owner (their tokens
 *   stop working) and the next athlete to sign in owns the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseEnv, repositoryRoot, scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { connectWithOAuth, rawToolCall } from "../support/oauth-session.ts";
import { jonas, maya, startOAuthServer } from "../support/oauth-server.ts";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";

const state = scratchDirectory();
afterAll(() => state.remove());

/** `npm run oauth-admin` on the state directory, with the server's MCP_ATHLETES of the moment. */
function oauthAdmin(athletes: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ["--import", "tsx", "authorization/oauth-admin-cli.ts", ...args], {
    cwd: repositoryRoot,
    env: baseEnv({ FITNESS_OAUTH_DIR: state.path, MCP_ATHLETES: athletes }),
    encoding: "utf8",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function tokenRequest(issuer: string, provider: RecordingOAuthProvider): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: provider.tokens()?.refresh_token as string,
      client_id: provider.clientInformation()?.client_id as string,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("an athlete taken out of MCP_ATHLETES", () => {
  const jonasProvider = new RecordingOAuthProvider();
  const jonasFile = join(state.path, "athletes", `${jonas}.json`);

  beforeAll(async () => {
    const both = await startOAuthServer({ MCP_ATHLETES: `${maya},${jonas}` }, { stateDirectory: state.path });
    (await connectWithOAuth(both.mcpUrl, new RecordingOAuthProvider()))?.close();
    await both.signIn(jonas);
    (await connectWithOAuth(both.mcpUrl, jonasProvider))?.close();
    await both.stop();
  });

  it("is refused at once at /mcp and at the token endpoint, keeps their Strava tokens, and is said to wait at every start", async () => {
    const server = await startOAuthServer({ MCP_ATHLETES: maya }, { stateDirectory: state.path });
    try {
      const waiting = await server.child.waitForEvent("athlete_waiting", 10_000);
      expect(waiting).toMatchObject({ level: "warn", athlete: jonas });
      expect(String(waiting["message"])).toMatch(
        /kept until \d{4}-\d\d-\d\dT.*then revoked at Strava and deleted.*npm run oauth-admin -- forget 61930114/,
      );
      const refused = await rawToolCall(server.mcpUrl, jonasProvider.tokens()?.access_token, "get_athlete");
      expect(refused.status).toBe(401);
      expect(await tokenRequest(server.issuer, jonasProvider)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
      expect(existsSync(jonasFile)).toBe(true);
      const listed = oauthAdmin(maya, "athletes");
      expect(listed.status).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`${jonas}  not admitted since \\S+; tokens revoked and deleted after \\S+`));
      expect(listed.stdout).toContain(`${maya}  admitted`);
    } finally {
      await server.stop();
    }
  });

  it("admitted again, signs in and is served; after the grace period their tokens are revoked at Strava and deleted", async () => {
    const again = await startOAuthServer({ MCP_ATHLETES: `${maya},${jonas}` }, { stateDirectory: state.path });
    try {
      await again.child.waitForEvent("athlete_admitted_again", 10_000, (line) => line["athlete"] === jonas);
      await again.signIn(jonas);
      const fresh = new RecordingOAuthProvider();
      const client = await connectWithOAuth(again.mcpUrl, fresh);
      expect(client).toBeDefined();
      await client?.close();
    } finally {
      await again.stop();
    }
    // Out again, and the grace period (7 days) already over: the next start disconnects them.
    writeFileSync(join(state.path, "athletes", `${jonas}.unadmitted`), String(Date.now() - 8 * 86_400_000));
    const later = await startOAuthServer({ MCP_ATHLETES: maya }, { stateDirectory: state.path });
    try {
      const disconnected = await later.child.waitForEvent("athlete_disconnected", 10_000, (line) => line["athlete"] === jonas);
      expect(String(disconnected["why"])).toMatch(/grace period/);
      expect(existsSync(jonasFile)).toBe(false);
    } finally {
      await later.stop();
    }
  });

  it("the operator's forget does it at once", async () => {
    const server = await startOAuthServer({ MCP_ATHLETES: `${maya},${jonas}` }, { stateDirectory: state.path });
    try {
      await server.signIn(jonas);
      (await connectWithOAuth(server.mcpUrl, new RecordingOAuthProvider()))?.close();
    } finally {
      await server.stop();
    }
    expect(existsSync(jonasFile)).toBe(true);
    const forgot = oauthAdmin(`${maya},${jonas}`, "forget", jonas);
    expect(forgot.stdout + forgot.stderr).toMatch(new RegExp(`Athlete ${jonas}: grants ended, everything stored deleted`));
    expect(forgot.status).toBe(0);
    expect(existsSync(jonasFile)).toBe(false);
    expect(oauthAdmin(`${maya},${jonas}`, "forget", jonas)).toMatchObject({ status: 1 });
    expect(oauthAdmin(`${maya},${jonas}`, "forget", "jonas")).toMatchObject({ status: 2 });
  });
});

describe("the owner of a loopback server", () => {
  it("is evicted by reset-owner: their token stops working, and the next athlete to sign in owns the server", async () => {
    const ownerState = scratchDirectory();
    try {
      const server = await startOAuthServer({}, { stateDirectory: ownerState.path });
      try {
        const mayaProvider = new RecordingOAuthProvider();
        (await connectWithOAuth(server.mcpUrl, mayaProvider))?.close();
        const reset = spawnSync(process.execPath, ["--import", "tsx", "authorization/oauth-admin-cli.ts", "reset-owner"], {
          cwd: repositoryRoot,
          env: baseEnv({ FITNESS_OAUTH_DIR: ownerState.path }),
          encoding: "utf8",
        });
        expect(reset.stdout).toMatch(new RegExp(`Athlete ${maya} no longer owns this server: 1 grant ended`));
        expect((await rawToolCall(server.mcpUrl, mayaProvider.tokens()?.access_token, "get_athlete")).status).toBe(401);
        await server.signIn(jonas);
        const jonasClient = await connectWithOAuth(server.mcpUrl, new RecordingOAuthProvider());
        expect(jonasClient).toBeDefined();
        await jonasClient?.close();
      } finally {
        await server.stop();
      }
    } finally {
      ownerState.remove();
    }
  });
});
