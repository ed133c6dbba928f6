/**
 * The bearer token HTTP clients must send. `AUTH_TOKEN` when set; otherwise a token generated once and
 * kept in the config directory (`$XDG_CONFIG_HOME/openclaw-fitness/mcp-auth-token`, by default
 * `~/.config/...`, mode 0600 in a 0700 directory), so a client configured with it keeps working across
 * restarts, as a user who saved it in Claude Code or Cursor expects. Delete the file for a new one.
 *
 * The token itself is never logged: the log names the file. When the file cannot be written (a
 * read-only home) the server does not start, and says to set AUTH_TOKEN. Beyond loopback the generated token is
 * not used: the server does not start without an AUTH_TOKEN the operator set.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { configFolder } from "../common/settings/credential-variables.ts";
import { readSetting, type Environment } from "../common/settings/setting.ts";
import { authToken as authTokenSetting, keptAuthTokenFileName } from "../common/settings/server-variables.ts";
import type { Logger } from "../common/logger.ts";
import { StartupError } from "./startup-error.ts";
import { messageOf } from "../common/named-error.ts";
import { createFileDurably } from "../common/durable-file.ts";

export type AuthTokenSource = { kind: "env" } | { kind: "file"; path: string; created: boolean };

export interface AuthToken {
  token: string;
  source: AuthTokenSource;
}

export function authTokenFilePath(env: Environment): string {
  return join(configFolder(env), keptAuthTokenFileName);
}

/** Below this, a bearer reachable from other machines is refused (and warned about on loopback). */
export const minimumExposedTokenLength = 16;

/** Where the server listens, as far as the bearer's strength matters. */
export interface BearerExposure {
  host: string;
  /** Bound beyond loopback: the bearer is all that keeps other machines out. */
  exposed: boolean;
}

/**
 * Bearer mode's token, checked: what a header can carry (visible ASCII, no spaces), and long enough when
 * other machines can reach the server. OAuth mode never calls this, so its AUTH_TOKEN, unused, is not checked.
 */
export async function resolveAuthToken(env: Environment, logger: Logger, exposure: BearerExposure): Promise<AuthToken> {
  if (exposure.exposed && !readSetting(env, authTokenSetting)) {
    // A token generated into a file is one nobody chose: fine for one person's machine, not for a network.
    throw new StartupError(
      `HOST=${exposure.host} listens beyond loopback, where the bearer token is all that keeps others out: set AUTH_TOKEN to a token ` +
        "you made and give it to your clients, for example AUTH_TOKEN=$(openssl rand -hex 32) npm start " +
        `(the token generated into ${authTokenFilePath(env)} serves loopback only).`,
    );
  }
  const resolved = await findAuthToken(env, logger);
  const named = resolved.source.kind === "env" ? "AUTH_TOKEN" : `The token in ${resolved.source.path}`;
  if (!/^[\x21-\x7e]+$/.test(resolved.token)) {
    throw new StartupError(
      `${named} must be visible ASCII characters without spaces (what an HTTP header can carry), or no client could ever send it.`,
    );
  }
  if (resolved.token.length < minimumExposedTokenLength) {
    const length = resolved.token.length;
    if (exposure.exposed) {
      throw new StartupError(
        `${named} has ${length} characters; bound to ${exposure.host}, beyond loopback, it is all that keeps others out: ` +
          `use at least ${minimumExposedTokenLength} (for example the output of openssl rand -base64 32).`,
      );
    }
    logger.warn("auth_token_short", {
      message: `${named} has ${length} characters: fine on loopback, guessable anywhere else; the server refuses it when HOST is not a loopback address.`,
    });
  }
  return resolved;
}

async function findAuthToken(env: Environment, logger: Logger): Promise<AuthToken> {
  const fromEnv = readSetting(env, authTokenSetting);
  if (fromEnv) return { token: fromEnv, source: { kind: "env" } };

  const path = authTokenFilePath(env);
  try {
    const kept = await readKeptToken(path, logger);
    if (kept !== undefined) {
      logger.info("auth_token_loaded", {
        file: path,
        message: "AUTH_TOKEN is not set: using the token kept in this file (clients send Authorization: Bearer <its content>).",
      });
      return { token: kept, source: { kind: "file", path, created: false } };
    }
    const token = randomBytes(32).toString("base64url");
    const written = await writeNewToken(path, token);
    if (!written) return findAuthToken(env, logger); // another server created it a moment ago: use theirs
    logger.warn("auth_token_generated", {
      file: path,
      message:
        "AUTH_TOKEN is not set, so a token was generated and kept in this file (mode 0600); it stays the same across restarts. Clients send Authorization: Bearer <its content>. Set AUTH_TOKEN to choose your own, or delete the file for a new one.",
    });
    return { token, source: { kind: "file", path, created: true } };
  } catch (error) {
    if (error instanceof StartupError) throw error;
    // A token for this run alone would have to be shown to be of use, and a token is never logged.
    throw new StartupError(
      `AUTH_TOKEN is not set and no token could be kept in ${path} (${messageOf(error)}). Set AUTH_TOKEN to a token of your choice ` +
        "(for example the output of openssl rand -base64 32), or XDG_CONFIG_HOME to a directory this user may write.",
    );
  }
}

/** The kept token, or undefined when there is no file yet. */
async function readKeptToken(path: string, logger: Logger): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const token = text.trim();
  if (token === "" || /\s/.test(token)) {
    throw new StartupError(
      `${path} must hold one token on one line (it is what clients send after "Bearer "); fix it, or delete it for a new one.`,
    );
  }
  const { mode } = await stat(path);
  if ((mode & 0o077) !== 0) {
    logger.warn("auth_token_file_open", {
      file: path,
      mode: (mode & 0o777).toString(8),
      message: `Other users can read the bearer token: chmod 600 ${path}`,
    });
  }
  return token;
}

/**
 * Creates the file with the token, complete or not at all (common/durable-file.ts: a temporary file linked to
 * its name, which fails if the name exists). False when another server created it first.
 */
async function writeNewToken(path: string, token: string): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  return createFileDurably(path, `${token}\n`);
}
