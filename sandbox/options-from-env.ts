/**
 * The sandbox's knobs from environment variables (declared in common/settings/sandbox-variables.ts), for
 * `npm run sandbox` and for front ends that embed it. Bad values are errors that name the variable and
 * show a good value.
 */
import { ConfigurationError } from "../common/configuration-error.ts";
import {
  sandboxRateLimits,
  sandboxRotateRefreshTokens,
  sandboxScopes,
  sandboxSecondAthlete,
  sandboxSeed,
  sandboxSignInAs,
  sandboxTokenLifetimeSeconds,
  sandboxUploadProcessingMs,
} from "../common/settings/sandbox-variables.ts";
import { allSettings } from "../common/settings/inventory.ts";
import { defaultSandboxPort, host, port } from "../common/settings/server-variables.ts";
import { readSetting, type Environment } from "../common/settings/setting.ts";
import type { SandboxOptions } from "./server.ts";
import { knownScopes } from "./oauth.ts";

/** The sandbox's variables for its --help, from the settings inventory. */
export function sandboxEnvHelp(): string[] {
  return allSettings()
    .filter((setting) => setting.readBy.includes("sandbox"))
    .map((setting) => `${setting.name}: ${setting.meaning} (default ${setting.defaultText})`);
}

export function sandboxOptionsFromEnv(env: Environment, defaults: { port: number } = { port: defaultSandboxPort }): SandboxOptions {
  const options: SandboxOptions = { host: readSetting(env, host), port: readSetting(env, port) ?? defaults.port };
  const lifetime = readSetting(env, sandboxTokenLifetimeSeconds);
  if (lifetime !== undefined) options.tokenLifetimeSeconds = lifetime;
  const processing = readSetting(env, sandboxUploadProcessingMs);
  if (processing !== undefined) options.uploadProcessingMs = processing;
  const seed = readSetting(env, sandboxSeed);
  if (seed !== undefined) options.seed = seed;
  const limits = readSetting(env, sandboxRateLimits);
  if (limits !== undefined) options.rateLimits = limits;
  const rotate = readSetting(env, sandboxRotateRefreshTokens);
  if (rotate !== undefined) options.rotateRefreshTokens = rotate;
  const second = readSetting(env, sandboxSecondAthlete);
  if (second !== undefined) options.secondAthlete = second;
  const signInAs = readSetting(env, sandboxSignInAs);
  if (signInAs !== undefined) options.signInAs = signInAs;
  const scopes = readSetting(env, sandboxScopes);
  if (scopes !== undefined) {
    const unknown = scopes.filter((scope) => !(knownScopes as readonly string[]).includes(scope));
    if (unknown.length > 0)
      throw new ConfigurationError(
        `SANDBOX_SCOPES has unknown scope(s) ${unknown.join(", ")}; Strava's scopes are ${knownScopes.join(", ")}.`,
      );
    options.grantedScopes = scopes;
  }
  return options;
}
