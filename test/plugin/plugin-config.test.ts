import { describe, expect, it } from "vitest";
import { PluginConfigError, resolvePluginSettings, tokenFilePath } from "../../plugin/plugin-config.ts";

describe("resolvePluginSettings", () => {
  const defaults = {
    upstream: "strava",
    credentialStore: "secrets-manager",
    secretName: "fitness-credentials",
    cloudRegion: "us-west-2",
    tokenFile: "~/.config/openclaw-fitness/strava-tokens.json",
    writeApproval: "host",
    writeApprovalTimeoutSeconds: 300,
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
      /unknown key\(s\) secretname; the plugin accepts only upstream, credentialStore, secretName, cloudRegion, tokenFile, writeApproval, writeApprovalTimeoutSeconds/,
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
    ["fitness-credentials", /plugins\.entries\.fitness\.config must be an object/],
    [["x"], /must be an object/],
  ])("rejects %j with a message naming the key and a good value", (config, message) => {
    expect(() => resolvePluginSettings(config)).toThrow(PluginConfigError);
    expect(() => resolvePluginSettings(config)).toThrow(message);
  });
});
