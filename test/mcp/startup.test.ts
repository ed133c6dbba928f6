/**
 * How Form A starts and stops: incomplete Strava credentials stop it with a message naming what is
 * missing; with no credentials and no AUTH_TOKEN it serves the embedded sandbox behind a generated
 * token printed once; SIGINT stops it cleanly.
 */
import { afterEach, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { baseEnv, spawnMcpChild, type McpChild } from "./mcp-child.ts";

let child: McpChild | undefined;
afterEach(async () => {
  await child?.stop();
  child = undefined;
});

describe("Form A start-up", () => {
  test("some but not all STRAVA_* variables: exits non-zero naming the missing ones", async () => {
    child = spawnMcpChild({ env: baseEnv({ PORT: "0", STRAVA_CLIENT_ID: "12345", AUTH_TOKEN: "irrelevant-token-value" }) });
    const code = await child.exited;
    expect(code).not.toBe(0);
    const failure = JSON.parse(child.stderrLines.find((line) => line.includes('"event":"startup_failed"'))!) as { message: string };
    expect(failure.message).toContain("STRAVA_CLIENT_SECRET");
    expect(failure.message).toContain("STRAVA_REFRESH_TOKEN");
    expect(failure.message).not.toContain("STRAVA_CLIENT_ID is");
    expect(child.stderrLines.join("\n")).not.toContain("irrelevant-token-value");
    expect(child.stdout()).toBe("");
  });

  test("a bad PORT: exits non-zero naming PORT", async () => {
    child = spawnMcpChild({ env: baseEnv({ PORT: "eighty" }) });
    expect(await child.exited).not.toBe(0);
    expect(child.stderrLines.join("\n")).toMatch(/PORT must be a whole number/);
  });

  test("no credentials and no AUTH_TOKEN: the embedded sandbox behind a generated token, printed once; SIGINT exits 0", async () => {
    child = spawnMcpChild({ env: baseEnv({ PORT: "0" }) });
    const generated = await child.waitForEvent("auth_token_generated");
    const token = String(generated["auth_token"]);
    expect(token.length).toBeGreaterThanOrEqual(32);
    const listening = await child.waitForEvent("listening");
    expect(listening["upstream"]).toBe("sandbox");
    const notice = await child.waitForEvent("upstream_sandbox");
    expect(String(notice["message"])).toContain("NOT your Strava account");

    const base = `http://127.0.0.1:${Number(listening["port"])}`;
    const health = await fetch(`${base}/health`, { headers: { authorization: `Bearer ${token}` } });
    expect(await health.json()).toMatchObject({ status: "ok", upstream: "sandbox" });
    expect((await fetch(`${base}/health`, { headers: { authorization: "Bearer not-it" } })).status).toBe(401);

    const client = new Client({ name: "startup-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(String(listening["url"])), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const athlete = (await client.callTool({ name: "get_athlete", arguments: {} })) as CallToolResult;
    expect(athlete.isError).toBeUndefined();
    await client.close();

    expect(await child.stop("SIGINT")).toBe(0);
    const mentions = child.stderrLines.filter((line) => line.includes(token));
    expect(mentions).toHaveLength(1);
    expect(mentions[0]).toContain('"event":"auth_token_generated"');
  });
});
