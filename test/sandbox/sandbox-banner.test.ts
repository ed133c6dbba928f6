/**
 * What `npm run sandbox` prints (sandbox/sandbox-banner.ts), checked in this process against a sandbox started here:
 * every export line and command works as printed, as Strava and as intervals.icu, and the token files it names are
 * throwaway ones in the folder it is given. test/sandbox/cli.test.ts keeps what only the command's process shows.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sandboxBanner } from "../../sandbox/sandbox-banner.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { baseEnv, scratchDirectory, spawnMcpChild } from "../mcp-adapter/mcp-child.ts";

let sandbox: RunningSandbox;
const scratch = scratchDirectory();
/** The banner as printed now: its refresh token is the one that works now (a test before may have rotated it). */
const printed = (): string => sandboxBanner(sandbox, scratch.path).join("\n");

beforeAll(async () => {
  sandbox = await startSandbox();
});

afterAll(async () => {
  await sandbox.close();
  scratch.remove();
});

describe("npm run sandbox's banner", () => {
  test("prints the base URL, credentials and export lines that work", async () => {
    const out = printed();
    const exports = Object.fromEntries([...out.matchAll(/export ((?:STRAVA|FITNESS)_[A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
    expect(Object.keys(exports).sort()).toEqual([
      "FITNESS_TOKEN_FILE",
      "STRAVA_API_BASE",
      "STRAVA_CLIENT_ID",
      "STRAVA_CLIENT_SECRET",
      "STRAVA_REFRESH_TOKEN",
      "STRAVA_TOKEN_URL",
    ]);
    expect(out).toMatch(/Strava sandbox listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain("Maya Lindgren");
    const token = await fetch(exports["STRAVA_TOKEN_URL"]!, {
      method: "POST",
      body: new URLSearchParams({
        client_id: exports["STRAVA_CLIENT_ID"]!,
        client_secret: exports["STRAVA_CLIENT_SECRET"]!,
        grant_type: "refresh_token",
        refresh_token: exports["STRAVA_REFRESH_TOKEN"]!,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const athlete = await fetch(`${exports["STRAVA_API_BASE"]}/athlete`, { headers: { Authorization: `Bearer ${access_token}` } });
    expect(athlete.status).toBe(200);
    expect(out.endsWith("Ctrl-C to stop.")).toBe(true);
  });

  test("prints the intervals.icu face's address and key as export lines that work", async () => {
    const out = printed();
    const exports = Object.fromEntries([...out.matchAll(/export (INTERVALS_[A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
    expect(Object.keys(exports).sort()).toEqual(["INTERVALS_API_BASE", "INTERVALS_API_KEY"]);
    const authorization = `Basic ${Buffer.from(`API_KEY:${exports["INTERVALS_API_KEY"]}`).toString("base64")}`;
    const athlete = await fetch(`${exports["INTERVALS_API_BASE"]}/athlete/0`, { headers: { Authorization: authorization } });
    expect(athlete.status).toBe(200);
    expect(((await athlete.json()) as { firstname: string }).firstname).toBe("Maya");
    expect(out).toContain(`curl -u API_KEY:${exports["INTERVALS_API_KEY"]} ${exports["INTERVALS_API_BASE"]}/athlete/0`);
  });

  test("the export lines keep the server's tokens in a scratch file, never in the default token file of a real account", async () => {
    const out = printed();
    // The Strava block, as a person copies it (the intervals.icu block is the other log: a server serves one).
    const stravaBlock = out.slice(
      out.indexOf("Point the tools at it as Strava"),
      out.indexOf("\n\n", out.indexOf("Point the tools at it as Strava")),
    );
    const exportLines = [...stravaBlock.matchAll(/^ {2}(export \S+=\S+)$/gm)].map((m) => m[1]!);
    expect(exportLines).toContain(`export FITNESS_TOKEN_FILE=${join(scratch.path, "sandbox-env-tokens.json")}`);
    // A person's shell: a home of its own, the printed lines, then npm start's server and one call.
    const home = join(scratch.path, "home");
    const env = baseEnv({ HOME: home, PORT: "0", AUTH_TOKEN: "sandbox-export-lines-token" });
    delete env["XDG_CONFIG_HOME"];
    for (const line of exportLines) {
      const [name, value] = line.slice("export ".length).split(/=(.*)/s) as [string, string];
      env[name] = value;
    }
    const server = spawnMcpChild({ env });
    try {
      const listening = await server.waitForEvent("listening");
      const call = await fetch(String(listening["url"]), {
        method: "POST",
        headers: {
          authorization: "Bearer sandbox-export-lines-token",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_athlete", arguments: {} } }),
      });
      expect(await call.text()).toContain("Lindgren");
    } finally {
      await server.stop();
    }
    expect(existsSync(join(scratch.path, "sandbox-env-tokens.json"))).toBe(true);
    expect(existsSync(join(home, ".config/openclaw-fitness/strava-tokens.json"))).toBe(false);
  });
});
