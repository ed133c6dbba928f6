/**
 * The composition root's reading of the core's settings, for each front end: which training log from the
 * environment (the MCP server), from the plugin's config, or for OAuth mode (Strava only); both logs at once
 * refused naming both; the sandbox's face; the messages, whole.
 */
import { describe, expect, it } from "vitest";
import { readCoreSettings } from "../../../tools/composition/core-settings.ts";
import { ConfigurationError } from "../../../common/configuration-error.ts";

const key = "k".repeat(25);
const home = { XDG_CONFIG_HOME: "/home/maya/.config" };

describe("the core's settings from the environment (the MCP server)", () => {
  it("INTERVALS_API_KEY chooses intervals.icu, with its addresses; the key's own athlete by default", () => {
    expect(readCoreSettings({ ...home, INTERVALS_API_KEY: key }).upstream).toEqual({
      log: "intervals.icu",
      key: { value: key, setting: "INTERVALS_API_KEY" },
      api: { apiBase: "https://intervals.icu/api/v1", athleteId: "0", timeoutMs: 30_000 },
    });
    expect(
      readCoreSettings({
        INTERVALS_API_KEY: key,
        INTERVALS_API_BASE: "http://127.0.0.1:8900/intervals/api/v1/",
        INTERVALS_ATHLETE_ID: "i218734",
      }).upstream,
    ).toMatchObject({ api: { apiBase: "http://127.0.0.1:8900/intervals/api/v1", athleteId: "i218734" } });
  });

  it.each([
    [{ STRAVA_CLIENT_ID: "1" }, "STRAVA_CLIENT_ID"],
    [{ STRAVA_CLIENT_SECRET: "s" }, "STRAVA_CLIENT_SECRET"],
    [{ STRAVA_REFRESH_TOKEN: "r" }, "STRAVA_REFRESH_TOKEN"],
    [{ FITNESS_TOKEN_FILE: "/tmp/tokens.json" }, "FITNESS_TOKEN_FILE"],
    [{ FITNESS_SECRET_NAME: "fitness-credentials" }, "FITNESS_SECRET_NAME"],
  ])("INTERVALS_API_KEY with %j is refused, naming both", (strava, name) => {
    expect(() => readCoreSettings({ INTERVALS_API_KEY: key, ...strava })).toThrow(ConfigurationError);
    expect(() => readCoreSettings({ INTERVALS_API_KEY: key, ...strava })).toThrow(
      `Both training logs are set: INTERVALS_API_KEY (intervals.icu) and ${name} (Strava). A server serves one: unset INTERVALS_API_KEY to serve Strava, or unset that variable to serve intervals.icu.`,
    );
  });

  it("names every Strava credential set beside the key, and never the key's value", () => {
    let message = "";
    try {
      readCoreSettings({ INTERVALS_API_KEY: key, STRAVA_CLIENT_ID: "1", STRAVA_CLIENT_SECRET: "s", STRAVA_REFRESH_TOKEN: "r" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET, STRAVA_REFRESH_TOKEN (Strava)");
    expect(message).toContain("unset those variables");
    expect(message).not.toContain(key);
  });

  it("Strava's addresses alone are no clash", () => {
    expect(
      readCoreSettings({
        INTERVALS_API_KEY: key,
        STRAVA_API_BASE: "http://127.0.0.1:1/api/v3",
        STRAVA_TOKEN_URL: "http://127.0.0.1:1/oauth/token",
      }).upstream?.log,
    ).toBe("intervals.icu");
  });

  it("refuses a plain-http intervals.icu address beyond this machine, before any key could travel", () => {
    expect(() => readCoreSettings({ INTERVALS_API_KEY: key, INTERVALS_API_BASE: "http://intervals.example.com/api/v1" })).toThrow(
      /INTERVALS_API_BASE must be an https:\/\/ address: the API key goes with every request/,
    );
  });

  it("Strava as before: a secret, the three variables, a token file named alone; nothing at all leaves the sandbox's face", () => {
    expect(readCoreSettings({ FITNESS_SECRET_NAME: "s", AWS_REGION: "eu-west-1" }).upstream).toMatchObject({
      log: "strava",
      credentials: { kind: "secrets-manager", secretName: "s", region: "eu-west-1" },
    });
    expect(
      readCoreSettings({ ...home, STRAVA_CLIENT_ID: "1", STRAVA_CLIENT_SECRET: "s", STRAVA_REFRESH_TOKEN: "r" }).upstream,
    ).toMatchObject({
      credentials: { kind: "environment", tokenFile: "/home/maya/.config/openclaw-fitness/strava-tokens.json" },
    });
    expect(readCoreSettings({ FITNESS_TOKEN_FILE: "/srv/t.json" }).upstream).toMatchObject({
      credentials: { kind: "token-file", path: "/srv/t.json" },
    });
    expect(() => readCoreSettings({ STRAVA_CLIENT_ID: "1" })).toThrow(
      /Strava credentials are incomplete: STRAVA_CLIENT_SECRET, STRAVA_REFRESH_TOKEN are not set/,
    );
    const none = readCoreSettings(home);
    expect(none.upstream).toBeUndefined();
    expect(none.sandboxFace).toBe("strava");
    expect(readCoreSettings({ SANDBOX_FACE: "intervals.icu" }).sandboxFace).toBe("intervals.icu");
    expect(readCoreSettings({ SANDBOX_FACE: "intervals" }).sandboxFace).toBe("intervals.icu");
    expect(() => readCoreSettings({ SANDBOX_FACE: "garmin" })).toThrow('SANDBOX_FACE must be strava or intervals.icu; got "garmin".');
  });

  it("says that SANDBOX_FACE does nothing when a log is set", () => {
    expect(readCoreSettings({ INTERVALS_API_KEY: key, SANDBOX_FACE: "strava" }).ignored).toEqual([
      ["sandbox_face_ignored", "SANDBOX_FACE applies only to the built-in sandbox, which is not served: intervals.icu is."],
    ]);
  });
});

describe("the core's settings for OAuth mode and the plugin", () => {
  it("OAuth mode serves Strava only and says so when given intervals.icu's key", () => {
    expect(readCoreSettings({ STRAVA_CLIENT_ID: "1", STRAVA_CLIENT_SECRET: "s" }, "oauth").upstream).toMatchObject({
      log: "strava",
      credentials: undefined,
    });
    expect(() => readCoreSettings({ INTERVALS_API_KEY: key }, "oauth")).toThrow(
      "OAuth mode (MCP_AUTH=oauth, and the hosted function) serves Strava only: athletes sign in with Strava. INTERVALS_API_KEY is set: " +
        "unset it to run OAuth mode, or serve the intervals.icu log without MCP_AUTH=oauth (npm start, behind a bearer token, or --stdio).",
    );
    expect(readCoreSettings({ INTERVALS_API_BASE: "https://intervals.icu/api/v1" }, "oauth").ignored).toEqual([
      ["intervals_settings_ignored", "OAuth mode serves Strava only: INTERVALS_API_BASE is not used."],
    ]);
  });

  it("the plugin's config names the log and its store; the addresses come from the environment", () => {
    const store = { kind: "token-file", path: "/home/maya/.config/openclaw-fitness/strava-tokens.json" } as const;
    expect(readCoreSettings({ INTERVALS_API_BASE: "http://localhost:9/api/v1" }, { log: "intervals.icu", store }).upstream).toEqual({
      log: "intervals.icu",
      key: { store },
      api: { apiBase: "http://localhost:9/api/v1", athleteId: "0", timeoutMs: 30_000 },
    });
    expect(readCoreSettings({}, { log: "strava", store }).upstream).toMatchObject({ log: "strava", credentials: store });
    // The plugin does not read INTERVALS_API_KEY: its key lives in the store, never in the environment or its config.
    expect(readCoreSettings({ INTERVALS_API_KEY: key, STRAVA_CLIENT_ID: "1" }, { log: "strava", store }).upstream?.log).toBe("strava");
  });
});
