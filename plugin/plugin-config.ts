/**
 * The plugin's settings: `plugins.entries.fitness.config` from the host (which applies the manifest's
 * defaults first), then the same defaults here for hosts or tests that pass nothing. A bad value is
 * an error that names the config path and shows a good value; nothing is guessed.
 */
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { ConfigurationError } from "../common/configuration-error.ts";
import { isValidTimeZone } from "../common/time-zone.ts";
import { trainingLogs, type TrainingLog } from "../common/upstream/training-log-client.ts";
import type { AuthorizationTarget } from "../credentials/store-choice.ts";
import { defaultAwsRegion, defaultTokenFileText } from "../common/settings/credential-variables.ts";

/** Where the credentials live (Strava's tokens, or intervals.icu's key): a Secrets Manager secret (the default) or a local token file. */
export const credentialStoreKinds = ["secrets-manager", "token-file"] as const;
export type CredentialStoreKind = (typeof credentialStoreKinds)[number];

/** Who confirms a write before it reaches Strava (see plugin/write-approval.ts). */
export const writeApprovalModes = ["host", "chat"] as const;
export type WriteApprovalMode = (typeof writeApprovalModes)[number];

export interface PluginSettings {
  /**
   * The training log the tools read: `strava` (the default) or `intervals.icu`. For intervals.icu the credential
   * store below keeps the athlete's API key (`intervals_api_key`, written by `npm run authorize:intervals`).
   */
  upstream: TrainingLog;
  /**
   * `secrets-manager`: the secret below, for a host with AWS credentials (shared with hosted MCP servers).
   * `token-file`: the file below, for a host on a computer of one's own with no AWS account.
   */
  credentialStore: CredentialStoreKind;
  /** Name or ARN of the Secrets Manager secret holding the credentials JSON. */
  secretName: string;
  /** AWS region of that secret. */
  cloudRegion: string;
  /** The token file (`credentialStore: "token-file"`): absolute, or under the home folder with `~/`. */
  tokenFile: string;
  /**
   * `host`: every write tool call is held by the host until the person it asks approves it (the
   * approval shows what will change). `chat`: nothing holds the call; the model's own confirmation in
   * chat, as the skill describes it, is the only check.
   */
  writeApproval: WriteApprovalMode;
  /** How long a held write waits for the approval before it is refused (the host allows at most 600). */
  writeApprovalTimeoutSeconds: number;
  /**
   * The coach's debriefs of new workouts (plugin/debriefs/): "off", or how often the log is checked for new
   * activities, "5m" to "24h" (`npm run setup:coach -- --debriefs 15m` writes it). The athlete may turn
   * them off and on in chat; the choice made last wins (plugin/debriefs/debrief-choice.ts).
   */
  debriefs: string;
  /** The agent that gives the debriefs, on the channel it is bound to (setup writes its --agent-id). */
  debriefAgent: string;
  /** "HH:MM-HH:MM" in the athlete's time zone during which no check is made, or "off". */
  debriefQuietHours: string;
  /**
   * An IANA zone for the quiet hours instead of the athlete's own (on intervals.icu their profile's, on Strava
   * their newest activity's); "" when unset.
   */
  debriefTimeZone: string;
  /** For tests only: seconds between checks, below the 5-minute floor; 0 when unset. */
  debriefTestIntervalSeconds: number;
}

/** The token file `npm run authorize -- --store file` writes by default. */
export const defaultTokenFile = defaultTokenFileText;

export const defaultPluginSettings: PluginSettings = {
  upstream: "strava",
  credentialStore: "secrets-manager",
  secretName: "fitness-credentials",
  cloudRegion: defaultAwsRegion,
  tokenFile: defaultTokenFile,
  writeApproval: "host",
  writeApprovalTimeoutSeconds: 300,
  debriefs: "off",
  debriefAgent: "coach",
  debriefQuietHours: "22:00-07:00",
  debriefTimeZone: "",
  debriefTestIntervalSeconds: 0,
};

/** How often debriefs check the log: from 5 minutes to a day; 15 minutes is what setup:coach writes. */
export const debriefIntervalRange = { minMinutes: 5, maxMinutes: 24 * 60, defaultSetting: "15m" } as const;
/** A debriefs setting: "off", or a whole number of minutes ("15m") or hours ("1h"). */
export const debriefsPattern = /^(off|\d{1,4}[mh])$/;
/** Quiet hours: "22:00-07:00" (they may wrap past midnight), or "off". */
export const quietHoursPattern = /^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/;
const agentIdPattern = /^[a-z][a-z0-9_-]{0,63}$/;

/** The host caps a plugin approval's wait at 10 minutes; below 10 s nobody can answer in time. */
export const writeApprovalTimeoutRange = { min: 10, max: 600 } as const;

const configPath = "plugins.entries.fitness.config";
const knownKeys = new Set(Object.keys(defaultPluginSettings));
/** AWS region names: us-west-2, eu-central-1, us-gov-west-1, ap-southeast-4 ... */
const regionPattern = /^[a-z]{2}(-[a-z]+)+-\d+$/;
/** Secrets Manager names use these characters; a full ARN is also accepted. */
const secretNamePattern = /^(arn:[\w-]+:secretsmanager:[a-z0-9-]+:\d{12}:secret:)?[\w/+=.@-]{1,512}$/;

export class PluginConfigError extends ConfigurationError {}

export function resolvePluginSettings(pluginConfig: unknown): PluginSettings {
  if (pluginConfig === undefined || pluginConfig === null) return { ...defaultPluginSettings };
  const config = knownConfig(pluginConfig);
  return { ...resolveStoreSettings(config), ...resolveApprovalSettings(config), ...resolveDebriefSettings(config) };
}

/** The config as an object of the keys the plugin knows; anything else is refused, naming what it accepts. */
function knownConfig(pluginConfig: unknown): Record<string, unknown> {
  if (typeof pluginConfig !== "object" || pluginConfig === null || Array.isArray(pluginConfig)) {
    throw new PluginConfigError(
      `${configPath} must be an object such as {"secretName": "fitness-credentials", "cloudRegion": "us-west-2"}.`,
    );
  }
  const config = pluginConfig as Record<string, unknown>;
  const unknown = Object.keys(config).filter((key) => !knownKeys.has(key));
  if (unknown.length > 0) {
    throw new PluginConfigError(
      `${configPath} has unknown key(s) ${unknown.join(", ")}; the plugin accepts only ${[...knownKeys].join(", ")}.`,
    );
  }
  return config;
}

type StoreSettings = Pick<PluginSettings, "upstream" | "credentialStore" | "secretName" | "cloudRegion" | "tokenFile">;

/** Which log the tools read, and where its credentials live. */
function resolveStoreSettings(config: Record<string, unknown>): StoreSettings {
  const upstream = readString(config, "upstream", defaultPluginSettings.upstream);
  if (!(trainingLogs as readonly string[]).includes(upstream)) {
    throw new PluginConfigError(
      `${configPath}.upstream must be "strava" (the default) or "intervals.icu" (the athlete's intervals.icu log, its API key in the credential store below); got "${upstream}".`,
    );
  }
  const credentialStore = readString(config, "credentialStore", defaultPluginSettings.credentialStore);
  if (!(credentialStoreKinds as readonly string[]).includes(credentialStore)) {
    throw new PluginConfigError(
      `${configPath}.credentialStore must be "secrets-manager" (an AWS Secrets Manager secret, the default) or "token-file" (a local file, for a host without AWS); got "${credentialStore}".`,
    );
  }
  const tokenFile = readString(config, "tokenFile", defaultPluginSettings.tokenFile);
  if (!isAbsolute(tokenFile) && !tokenFile.startsWith("~/")) {
    throw new PluginConfigError(
      `${configPath}.tokenFile must be an absolute path, or one under your home folder starting with ~/, such as "${defaultTokenFile}"; got "${tokenFile}".`,
    );
  }
  const secretName = readString(config, "secretName", defaultPluginSettings.secretName);
  if (!secretNamePattern.test(secretName)) {
    throw new PluginConfigError(
      `${configPath}.secretName must be a Secrets Manager secret name (letters, digits and /_+=.@-) or its ARN, such as "fitness-credentials"; got "${secretName}".`,
    );
  }
  const cloudRegion = readString(config, "cloudRegion", defaultPluginSettings.cloudRegion);
  if (!regionPattern.test(cloudRegion)) {
    throw new PluginConfigError(`${configPath}.cloudRegion must be an AWS region name such as "us-west-2"; got "${cloudRegion}".`);
  }
  return {
    upstream: upstream as TrainingLog,
    credentialStore: credentialStore as CredentialStoreKind,
    secretName,
    cloudRegion,
    tokenFile,
  };
}

type ApprovalSettings = Pick<PluginSettings, "writeApproval" | "writeApprovalTimeoutSeconds">;

/** Who approves a write, and how long a held write waits. */
function resolveApprovalSettings(config: Record<string, unknown>): ApprovalSettings {
  const writeApproval = readString(config, "writeApproval", defaultPluginSettings.writeApproval);
  if (!(writeApprovalModes as readonly string[]).includes(writeApproval)) {
    throw new PluginConfigError(
      `${configPath}.writeApproval must be "host" (the host asks before every Strava write) or "chat" (only the coach's own confirmation in chat); got "${writeApproval}".`,
    );
  }
  const timeout = config["writeApprovalTimeoutSeconds"] ?? defaultPluginSettings.writeApprovalTimeoutSeconds;
  const { min, max } = writeApprovalTimeoutRange;
  if (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < min || timeout > max) {
    throw new PluginConfigError(
      `${configPath}.writeApprovalTimeoutSeconds must be a whole number of seconds from ${min} to ${max} (default ${defaultPluginSettings.writeApprovalTimeoutSeconds}); got ${JSON.stringify(timeout)}.`,
    );
  }
  return { writeApproval: writeApproval as WriteApprovalMode, writeApprovalTimeoutSeconds: timeout };
}

type DebriefSettings = Pick<
  PluginSettings,
  "debriefs" | "debriefAgent" | "debriefQuietHours" | "debriefTimeZone" | "debriefTestIntervalSeconds"
>;

function resolveDebriefSettings(config: Record<string, unknown>): DebriefSettings {
  const debriefs = readString(config, "debriefs", defaultPluginSettings.debriefs);
  const minutes = debriefIntervalMinutes(debriefs);
  const { minMinutes, maxMinutes } = debriefIntervalRange;
  if (!debriefsPattern.test(debriefs) || (minutes !== undefined && (minutes < minMinutes || minutes > maxMinutes))) {
    throw new PluginConfigError(
      `${configPath}.debriefs must be "off" or how often to check for new workouts, from "${minMinutes}m" to "24h" (such as "${debriefIntervalRange.defaultSetting}" or "1h"); got "${debriefs}".`,
    );
  }
  const debriefAgent = readString(config, "debriefAgent", defaultPluginSettings.debriefAgent);
  if (!agentIdPattern.test(debriefAgent)) {
    throw new PluginConfigError(
      `${configPath}.debriefAgent must be an agent id (lowercase letters, digits, "-" or "_", starting with a letter), such as "coach"; got "${debriefAgent}".`,
    );
  }
  const debriefQuietHours = readString(config, "debriefQuietHours", defaultPluginSettings.debriefQuietHours);
  const quiet = quietHoursPattern.test(debriefQuietHours) ? debriefQuietHours.split("-") : undefined;
  if (!quiet || (quiet.length === 2 && quiet[0] === quiet[1])) {
    throw new PluginConfigError(
      `${configPath}.debriefQuietHours must be "off" or a start and end time, 24-hour, such as "22:00-07:00" (the end may be the next morning; start and end differ); got "${debriefQuietHours}".`,
    );
  }
  const zone = config["debriefTimeZone"] ?? "";
  if (typeof zone !== "string" || (zone.trim() !== "" && !isValidTimeZone(zone.trim()))) {
    throw new PluginConfigError(
      `${configPath}.debriefTimeZone must be an IANA time zone such as "Europe/Berlin" or "America/Denver" (leave it out for the athlete's own: their profile's on intervals.icu, their newest activity's on Strava); got ${JSON.stringify(zone)}.`,
    );
  }
  const testSeconds = config["debriefTestIntervalSeconds"] ?? 0;
  if (typeof testSeconds !== "number" || !Number.isInteger(testSeconds) || testSeconds < 0 || testSeconds > 300) {
    throw new PluginConfigError(
      `${configPath}.debriefTestIntervalSeconds is for tests only: a whole number of seconds from 1 to 300 between checks (0 or absent: the debriefs setting); got ${JSON.stringify(testSeconds)}.`,
    );
  }
  return { debriefs, debriefAgent, debriefQuietHours, debriefTimeZone: zone.trim(), debriefTestIntervalSeconds: testSeconds };
}

/** The minutes between checks a debriefs setting names ("15m" is 15, "2h" is 120), or undefined for "off". */
export function debriefIntervalMinutes(setting: string): number | undefined {
  const match = /^(\d+)([mh])$/.exec(setting);
  if (!match) return undefined;
  return Number(match[1]) * (match[2] === "h" ? 60 : 1);
}

/** The store the config names, as the composition root takes it. */
export function pluginCredentialTarget(settings: PluginSettings, home: string = homedir()): AuthorizationTarget {
  return settings.credentialStore === "token-file"
    ? { kind: "token-file", path: tokenFilePath(settings, home) }
    : { kind: "secrets-manager", secretName: settings.secretName, region: settings.cloudRegion };
}

/** The token file's path with `~/` resolved against `home`. */
export function tokenFilePath(settings: PluginSettings, home: string = homedir()): string {
  return settings.tokenFile.startsWith("~/") ? join(home, settings.tokenFile.slice(2)) : settings.tokenFile;
}

function readString(
  config: Record<string, unknown>,
  key:
    | "upstream"
    | "credentialStore"
    | "secretName"
    | "cloudRegion"
    | "tokenFile"
    | "writeApproval"
    | "debriefs"
    | "debriefAgent"
    | "debriefQuietHours",
  fallback: string,
): string {
  const value = config[key];
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value.trim() === "") {
    throw new PluginConfigError(`${configPath}.${key} must be a non-empty string (default "${fallback}").`);
  }
  return value.trim();
}
