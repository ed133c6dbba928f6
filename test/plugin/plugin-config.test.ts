import { describe, expect, it } from "vitest";
import { debriefIntervalMinutes, PluginConfigError, resolvePluginSettings, tokenFilePath } from "../../plugin/plugin-config.ts";

describe("resolvePluginSettings", () => {
  const defaults = {
    upstream: "strava",
    credentialStore: "secrets-manager",
    secretName: "fitness-credentials",
    cloudRegion: "us-west-2",
    tokenFile: "~/.config/openclaw-fitness/strava-tokens.json",
    writeApproval: "host",
    writeApprovalTimeoutSeconds: 300,
    debriefs: "off",
    debriefAgent: "coach",
    debriefQuietHours: "22:00-07:00",
    debriefTimeZone: "",
    debriefTestIntervalSeconds: 0,
  };

  it("uses the defaults when the host passes nothing or an empty object", () => {
    expect(resolvePluginSettings(undefined)).toEqual(defaults);
    expect(resolvePluginSettings({})).toEqual(defaults);
  });

  it("takes configured values, a secret ARN included", () => {
    expect(
      resolvePluginSettings({
        secretName: "coach/strava",
        cloudRegion: "eu-central-1",
        writeApproval: "chat",
        writeApprovalTimeoutSeconds: 600,
      }),
    ).toEqual({
      ...defaults,
      secretName: "coach/strava",
      cloudRegion: "eu-central-1",
      writeApproval: "chat",
      writeApprovalTimeoutSeconds: 600,
    });
    expect(resolvePluginSettings({ credentialStore: "token-file", tokenFile: "/srv/coach/strava-tokens.json" })).toMatchObject({
      credentialStore: "token-file",
      tokenFile: "/srv/coach/strava-tokens.json",
    });
    expect(tokenFilePath(resolvePluginSettings({ credentialStore: "token-file" }), "/home/maya")).toBe(
      "/home/maya/.config/openclaw-fitness/strava-tokens.json",
    );
    expect(resolvePluginSettings({ upstream: "intervals.icu", credentialStore: "token-file" })).toMatchObject({
      upstream: "intervals.icu",
      credentialStore: "token-file",
    });
    const arn = "arn:aws:secretsmanager:us-west-2:123456789012:secret:fitness-credentials-AbCdEf";
    expect(resolvePluginSettings({ secretName: arn }).secretName).toBe(arn);
  });

  it("takes the debriefs' settings: an interval from 5 minutes to a day, quiet hours, a zone, the test interval", () => {
    expect(
      resolvePluginSettings({
        debriefs: "1h",
        debriefAgent: "my-coach",
        debriefQuietHours: "off",
        debriefTimeZone: "Europe/Berlin",
        debriefTestIntervalSeconds: 5,
      }),
    ).toMatchObject({
      debriefs: "1h",
      debriefAgent: "my-coach",
      debriefQuietHours: "off",
      debriefTimeZone: "Europe/Berlin",
      debriefTestIntervalSeconds: 5,
    });
    for (const setting of ["off", "5m", "15m", "90m", "24h", "1440m"])
      expect(resolvePluginSettings({ debriefs: setting }).debriefs).toBe(setting);
    expect(debriefIntervalMinutes("2h")).toBe(120);
    expect(debriefIntervalMinutes("off")).toBeUndefined();
  });

  it.each([
    [
      { cloudRegion: "Oregon" },
      /plugins\.entries\.fitness\.config\.cloudRegion must be an AWS region name such as "us-west-2"; got "Oregon"/,
    ],
    [{ secretName: "" }, /plugins\.entries\.fitness\.config\.secretName must be a non-empty string \(default "fitness-credentials"\)/],
    [{ secretName: 42 }, /secretName must be a non-empty string/],
    [{ secretName: "has space" }, /secretName must be a Secrets Manager secret name .* got "has space"/],
    [
      { secretname: "x" },
      /unknown key\(s\) secretname; the plugin accepts only upstream, credentialStore, secretName, cloudRegion, tokenFile, writeApproval, writeApprovalTimeoutSeconds, debriefs, debriefAgent, debriefQuietHours, debriefTimeZone, debriefTestIntervalSeconds/,
    ],
    [
      { credentialStore: "file" },
      /credentialStore must be "secrets-manager" \(an AWS Secrets Manager secret, the default\) or "token-file" \(a local file, for a host without AWS\); got "file"/,
    ],
    [
      { tokenFile: "tokens.json" },
      /tokenFile must be an absolute path, or one under your home folder starting with ~\/, such as "~\/.config\/openclaw-fitness\/strava-tokens.json"; got "tokens.json"/,
    ],
    [{ writeApproval: "off" }, /writeApproval must be "host" \(the host asks before every Strava write\) or "chat" .*; got "off"/],
    [{ writeApproval: true }, /writeApproval must be a non-empty string/],
    [
      { upstream: "intervals" },
      /upstream must be "strava" \(the default\) or "intervals.icu" \(the athlete's intervals.icu log, its API key in the credential store below\); got "intervals"/,
    ],
    [
      { writeApprovalTimeoutSeconds: 5 },
      /writeApprovalTimeoutSeconds must be a whole number of seconds from 10 to 600 \(default 300\); got 5/,
    ],
    [{ writeApprovalTimeoutSeconds: 601 }, /from 10 to 600 .*got 601/],
    [{ writeApprovalTimeoutSeconds: "300" }, /got "300"/],
    [{ writeApprovalTimeoutSeconds: 30.5 }, /got 30\.5/],
    [
      { debriefs: "2m" },
      /debriefs must be "off" or how often to check for new workouts, from "5m" to "24h" \(such as "15m" or "1h"\); got "2m"/,
    ],
    [{ debriefs: "25h" }, /from "5m" to "24h" .*got "25h"/],
    [{ debriefs: "often" }, /got "often"/],
    [{ debriefAgent: "Coach Bot" }, /debriefAgent must be an agent id .* such as "coach"; got "Coach Bot"/],
    [{ debriefQuietHours: "10pm-7am" }, /debriefQuietHours must be "off" or a start and end time, 24-hour, such as "22:00-07:00"/],
    [{ debriefQuietHours: "07:00-07:00" }, /start and end differ/],
    [{ debriefTimeZone: "Mars/Olympus" }, /debriefTimeZone must be an IANA time zone such as "Europe\/Berlin"/],
    [{ debriefTestIntervalSeconds: 301 }, /debriefTestIntervalSeconds is for tests only: a whole number of seconds from 1 to 300/],
    ["fitness-credentials", /plugins\.entries\.fitness\.config must be an object/],
    [["x"], /must be an object/],
  ])("rejects %j with a message naming the key and a good value", (config, message) => {
    expect(() => resolvePluginSettings(config)).toThrow(PluginConfigError);
    expect(() => resolvePluginSettings(config)).toThrow(message);
  });
});
