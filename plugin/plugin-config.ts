/**
 * The plugin's settings: `plugins.entries.fitness.config` from the host (which applies the manifest's
 * defaults first), then the same defaults here for hosts or tests that pass nothing. A bad value is
 * an error that names the config path and shows a good value; nothing is guessed.
 */

export interface PluginSettings {
  /** Name or ARN of the Secrets Manager secret holding the credentials JSON. */
  secretName: string;
  /** AWS region of that secret. */
  cloudRegion: string;
}

export const defaultPluginSettings: PluginSettings = {
  secretName: "fitness-credentials",
  cloudRegion: "us-west-2",
};

const configPath = "plugins.entries.fitness.config";
const knownKeys = new Set(Object.keys(defaultPluginSettings));
/** AWS region names: us-west-2, eu-central-1, us-gov-west-1, ap-southeast-4 ... */
const regionPattern = /^[a-z]{2}(-[a-z]+)+-\d+$/;
/** Secrets Manager names use these characters; a full ARN is also accepted. */
const secretNamePattern = /^(arn:[\w-]+:secretsmanager:[a-z0-9-]+:\d{12}:secret:)?[\w/+=.@-]{1,512}$/;

export class PluginConfigError extends Error {
  override readonly name = "PluginConfigError";
}

export function resolvePluginSettings(pluginConfig: unknown): PluginSettings {
  if (pluginConfig === undefined || pluginConfig === null) return { ...defaultPluginSettings };
  if (typeof pluginConfig !== "object" || Array.isArray(pluginConfig)) {
    throw new PluginConfigError(`${configPath} must be an object such as {"secretName": "fitness-credentials", "cloudRegion": "us-west-2"}.`);
  }
  const config = pluginConfig as Record<string, unknown>;
  const unknown = Object.keys(config).filter((key) => !knownKeys.has(key));
  if (unknown.length > 0) {
    throw new PluginConfigError(`${configPath} has unknown key(s) ${unknown.join(", ")}; the plugin accepts only secretName and cloudRegion.`);
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
  return { secretName, cloudRegion };
}

function readString(config: Record<string, unknown>, key: keyof PluginSettings, fallback: string): string {
  const value = config[key];
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value.trim() === "") {
    throw new PluginConfigError(`${configPath}.${key} must be a non-empty string (default "${fallback}").`);
  }
  return value.trim();
}
