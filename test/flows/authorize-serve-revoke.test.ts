/**
 * The operator's round trip as a person runs it offline, every step an `npm run` process: `npm run sandbox`
 * prints the three commands to copy; `npm run authorize -- --store file` writes the token file once its URL is
 * opened (the sandbox's authorize page approves at once, so a plain GET plays the browser); `npm start`
 * serves that file's athlete and keeps the refreshed tokens in it beside the application's credentials;
 * `npm run authorize -- --revoke` ends the grant, says what stays, and the running server then tells the
 * client to authorize again.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { baseEnv, scratchDirectory } from "../mcp-adapter/mcp-child.ts";
import { rawToolCall, resultText } from "../support/oauth-session.ts";
import { jsonRpcReply } from "../support/mcp-replies.ts";
import { runNpm, runPrintedCommand, type NpmRun } from "../support/npm-run.ts";

const scratch = scratchDirectory();
const running: NpmRun[] = [];
const authToken = "flow-test-bearer-token-5c1e9a";

afterAll(async () => {
  await Promise.all(running.map((run) => run.stop()));
  scratch.remove();
});

function started(run: NpmRun): NpmRun {
  running.push(run);
  return run;
}

/** The token file as JSON. */
function tokenFile(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

async function callTool(mcpUrl: string, name: string): Promise<{ isError: boolean; text: string }> {
  const response = await rawToolCall(mcpUrl, authToken, name);
  const reply = jsonRpcReply(await response.text());
  return { isError: reply.result?.["isError"] === true, text: resultText(reply.result) };
}

describe("authorize, serve, revoke: offline against npm run sandbox", () => {
  test("each printed command works as printed, and every message says only what is true", { timeout: 120_000 }, async () => {
    // Access tokens of two minutes: the server refreshes before its first call (within five minutes of expiry).
    const sandbox = started(runNpm(["run", "sandbox"], baseEnv({ PORT: "0", SANDBOX_TOKEN_LIFETIME_SECONDS: "120" })));
    await sandbox.waitFor(/Ctrl-C to stop\./);
    const path = join(scratch.path, "strava-tokens.json");
    const printed = sandbox
      .stdout()
      .split("\n")
      .filter((line) => /^ {2}STRAVA_\w+=\S+ .*\bnpm (run|start)\b/.test(line))
      .map((line) => line.replaceAll(join(tmpdir(), "sandbox-tokens.json"), path));
    const [authorizeLine, serveLine, revokeLine] = printed;
    expect(printed).toHaveLength(3);
    expect(authorizeLine).toMatch(/npm run authorize -- --store file --token-file /);
    expect(serveLine).toMatch(/ FITNESS_TOKEN_FILE=\S+ npm start$/);
    expect(revokeLine).toMatch(/npm run authorize -- --revoke --store file --token-file /);
    const clientSecret = /STRAVA_CLIENT_SECRET=(\S+)/.exec(authorizeLine!)![1]!;

    // 1. Authorize: open the printed URL (the sandbox approves at once and redirects to the command's callback).
    const authorize = started(runPrintedCommand(authorizeLine!, baseEnv({})));
    const [url] = await authorize.waitFor(/http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("The Strava tokens are stored");
    expect(await authorize.exited).toBe(0);
    expect(authorize.stdout()).toMatch(
      /Authorized Maya Lindgren \(athlete 48201735\) with scopes read,activity:read_all,activity:write,profile:read_all\./,
    );
    const authorized = tokenFile(path);
    expect(Object.keys(authorized).sort()).toEqual([
      "access_token",
      "client_id",
      "client_secret",
      "expires_at",
      "refresh_token",
      "updated_at",
    ]);

    // 2. Serve the file's athlete alone (no STRAVA_CLIENT_ID/SECRET/REFRESH_TOKEN in the environment), and call a tool.
    const server = started(runPrintedCommand(serveLine!, baseEnv({ PORT: "0", AUTH_TOKEN: authToken })));
    const [, mcpUrl] = await server.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+\/mcp)"/);
    expect(server.stderr()).toContain(`"credentials":"token file ${path}"`);
    const athlete = await callTool(mcpUrl!, "get_athlete");
    expect(athlete.isError).toBe(false);
    expect(athlete.text).toContain('"firstname":"Maya"');
    // The server refreshed (the sandbox rotates refresh tokens) and kept the application's credentials with the new tokens.
    const refreshed = tokenFile(path);
    expect(refreshed["refresh_token"]).not.toBe(authorized["refresh_token"]);
    expect(refreshed).toMatchObject({ client_id: authorized["client_id"], client_secret: authorized["client_secret"] });

    // 3. Revoke, with the application's credentials from the file (none in the environment).
    const revoke = started(runPrintedCommand(revokeLine!, baseEnv({})));
    expect(await revoke.exited).toBe(0);
    expect(revoke.stdout()).toContain(`Strava revoked the athlete's grant to application ${String(authorized["client_id"])}`);
    expect(revoke.stdout()).toContain(
      `Removed refresh_token, access_token and expires_at from the token file ${path} (client_id and client_secret stay).`,
    );
    const cleared = tokenFile(path);
    expect(Object.keys(cleared).sort()).toEqual(["client_id", "client_secret", "revoked_at", "updated_at"]);
    expect(cleared).toMatchObject({ client_id: authorized["client_id"], client_secret: authorized["client_secret"] });

    // "Servers using it now report that the athlete must authorize again": the one still running does.
    const after = await callTool(mcpUrl!, "get_athlete");
    expect(after.isError).toBe(true);
    // Said as what happened (revoked), not as a file someone left incomplete.
    expect(after.text).toBe(
      `Error: The token file ${path} holds no Strava grant: it was revoked at ${String(cleared["revoked_at"])} (npm run authorize -- --revoke). ` +
        "To serve the athlete again, authorize again (npm run authorize does this).",
    );

    // No secret on anything a person reads.
    const secrets = [
      authorized["access_token"],
      authorized["refresh_token"],
      refreshed["access_token"],
      refreshed["refresh_token"],
    ] as string[];
    for (const run of [authorize, server, revoke]) {
      for (const secret of secrets) expect(run.stdout() + run.stderr()).not.toContain(secret);
    }
    expect(authorize.stdout() + revoke.stdout() + server.stderr()).not.toContain(clientSecret);

    expect(await server.stop()).toBe(0);
    expect(await sandbox.stop()).toBe(0);
  });
});
