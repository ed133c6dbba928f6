/**
 * The voice service's settings, read from the environment on first use (not at import, so tests can set
 * the environment first) through the settings inventory (common/settings/voice-variables.ts), and
 * checked, with errors that say which variable to fix.
 */
import { ConfigurationError } from "../common/configuration-error.ts";
import { awsRegion } from "../common/settings/credential-variables.ts";
import { readSetting, type Environment, type Setting } from "../common/settings/setting.ts";
import { clientTokenParameter, voiceModelId, voiceTimezone } from "../common/settings/voice-variables.ts";
import { isValidTimeZone } from "../common/time-zone.ts";

/** The variable's value, or a ConfigurationError saying what to set it to. */
function required(env: Environment, setting: Setting<string | undefined>, setItTo: string): string {
  const value = readSetting(env, setting);
  if (!value) throw new ConfigurationError(`${setting.name} is not set: set it to ${setItTo}.`);
  return value;
}

/** AWS region for the SDK clients: `AWS_REGION` (Lambda sets it), default us-west-2. */
export function readRegion(env: Environment = process.env): string {
  return readSetting(env, awsRegion);
}

export interface HandlerSettings {
  modelId: string;
  timeZone: string;
  region: string;
}

export function readHandlerSettings(env: Environment = process.env): HandlerSettings {
  const modelId = required(env, voiceModelId, "a Bedrock model or inference profile id (e.g. us.anthropic.claude-sonnet-4-20250514-v1:0)");
  const timeZone = readSetting(env, voiceTimezone);
  if (!isValidTimeZone(timeZone)) {
    throw new ConfigurationError(
      `VOICE_TIMEZONE "${timeZone}" is not an IANA time zone: set it to a name such as Europe/Berlin or America/Los_Angeles.`,
    );
  }
  return { modelId, timeZone, region: readRegion(env) };
}

export interface AuthorizerSettings {
  clientTokenParameter: string;
  region: string;
}

export function readAuthorizerSettings(env: Environment = process.env): AuthorizerSettings {
  const parameter = required(
    env,
    clientTokenParameter,
    "the name of the SSM SecureString holding the client token (e.g. /voice/client-token)",
  );
  return { clientTokenParameter: parameter, region: readRegion(env) };
}
