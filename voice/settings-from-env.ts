// The voice service's settings, read from the environment on first use (not at import, so tests can set
// the environment first) and checked, with errors that say which variable to fix.

import { ConfigurationError } from "./errors.ts";
import { isValidTimeZone } from "../common/time-zone.ts";

export const DEFAULT_REGION = "us-west-2";
export const DEFAULT_TIME_ZONE = "UTC";

type Env = Record<string, string | undefined>;

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** The variable's value, or a ConfigurationError saying what to set it to. */
function required(env: Env, name: string, setItTo: string): string {
  const value = nonEmpty(env, name);
  if (!value) throw new ConfigurationError(`${name} is not set: set it to ${setItTo}.`);
  return value;
}

/** AWS region for the SDK clients: `AWS_REGION` (Lambda sets it), default us-west-2. */
export function readRegion(env: Env = process.env): string {
  return nonEmpty(env, "AWS_REGION") ?? DEFAULT_REGION;
}

export interface HandlerSettings {
  modelId: string;
  timeZone: string;
  region: string;
}

export function readHandlerSettings(env: Env = process.env): HandlerSettings {
  const modelId = required(env, "VOICE_MODEL_ID", "a Bedrock model or inference profile id (e.g. us.anthropic.claude-sonnet-4-20250514-v1:0)");
  const timeZone = nonEmpty(env, "VOICE_TIMEZONE") ?? DEFAULT_TIME_ZONE;
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

export function readAuthorizerSettings(env: Env = process.env): AuthorizerSettings {
  const clientTokenParameter = required(env, "CLIENT_TOKEN_PARAMETER", "the name of the SSM SecureString holding the client token (e.g. /voice/client-token)");
  return { clientTokenParameter, region: readRegion(env) };
}
