/**
 * The sandbox's knobs from environment variables, for `npm run sandbox` and for front ends that embed
 * it. Bad values are errors that name the variable and show a good value.
 */
import type { SandboxOptions } from "./server.ts";
import { knownScopes } from "./oauth.ts";

export const sandboxEnvHelp = [
  "PORT (default 8900), HOST (default 127.0.0.1)",
  "SANDBOX_TOKEN_LIFETIME_SECONDS: access-token lifetime, default 21600 (6 h)",
  "SANDBOX_UPLOAD_PROCESSING_MS: time until an upload is processed, default 8000",
  "SANDBOX_RATE_LIMITS: overall 15-min, overall daily, read 15-min, read daily; default 200,2000,100,1000",
  "SANDBOX_ROTATE_REFRESH_TOKENS: true (default) or false",
  "SANDBOX_SCOPES: scopes granted to the seeded refresh token, default read,activity:read_all,activity:write,profile:read_all",
  "SANDBOX_SEED: seed of the generated data, default 7",
  "SANDBOX_SECOND_ATHLETE: true adds a second athlete (Jonas Berg, id 61930114) with data of his own; default false",
  "SANDBOX_SIGN_IN_AS: the athlete id signed in at the authorize page at first (default the first athlete; POST /_sandbox/sign-in changes it)",
];

export function sandboxOptionsFromEnv(env: NodeJS.ProcessEnv, defaults: { port: number } = { port: 8900 }): SandboxOptions {
  const options: SandboxOptions = {
    host: env["HOST"] || "127.0.0.1",
    port: integer(env, "PORT", 0, 65_535) ?? defaults.port,
  };
  const lifetime = integer(env, "SANDBOX_TOKEN_LIFETIME_SECONDS", 1, 10 * 365 * 86_400);
  if (lifetime !== undefined) options.tokenLifetimeSeconds = lifetime;
  const processing = integer(env, "SANDBOX_UPLOAD_PROCESSING_MS", 0, 3_600_000);
  if (processing !== undefined) options.uploadProcessingMs = processing;
  const seed = integer(env, "SANDBOX_SEED", 0, 2 ** 32 - 1);
  if (seed !== undefined) options.seed = seed;

  const limits = env["SANDBOX_RATE_LIMITS"];
  if (limits) {
    const parts = limits.split(",").map((p) => p.trim());
    if (parts.length !== 4 || !parts.every((p) => /^\d+$/.test(p))) {
      throw new Error(`SANDBOX_RATE_LIMITS must be four whole numbers "overall15min,overallDaily,read15min,readDaily", e.g. 200,2000,100,1000; got "${limits}".`);
    }
    const [o15, oDay, r15, rDay] = parts.map(Number) as [number, number, number, number];
    options.rateLimits = { overall: [o15, oDay], read: [r15, rDay] };
  }

  const rotate = env["SANDBOX_ROTATE_REFRESH_TOKENS"];
  if (rotate) {
    if (rotate !== "true" && rotate !== "false") throw new Error(`SANDBOX_ROTATE_REFRESH_TOKENS must be true or false; got "${rotate}".`);
    options.rotateRefreshTokens = rotate === "true";
  }

  const second = env["SANDBOX_SECOND_ATHLETE"];
  if (second) {
    if (second !== "true" && second !== "false") throw new Error(`SANDBOX_SECOND_ATHLETE must be true or false; got "${second}".`);
    options.secondAthlete = second === "true";
  }
  const signInAs = integer(env, "SANDBOX_SIGN_IN_AS", 1, Number.MAX_SAFE_INTEGER);
  if (signInAs !== undefined) options.signInAs = signInAs;

  const scopes = env["SANDBOX_SCOPES"];
  if (scopes) {
    const list = scopes.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
    const unknown = list.filter((s) => !(knownScopes as readonly string[]).includes(s));
    if (unknown.length > 0) throw new Error(`SANDBOX_SCOPES has unknown scope(s) ${unknown.join(", ")}; Strava's scopes are ${knownScopes.join(", ")}.`);
    options.grantedScopes = list;
  }
  return options;
}

function integer(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return Number(raw);
}
