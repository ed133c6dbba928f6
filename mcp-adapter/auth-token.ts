/**
 * The bearer token HTTP clients must send. `AUTH_TOKEN` when set; otherwise a token generated once and
 * kept in the config directory (`$XDG_CONFIG_HOME/openclaw-fitness/mcp-auth-token`, by default
 * `~/.config/...`, mode 0600 in a 0700 directory), so a client configured with it keeps working across
 * restarts, as a user who saved it in Claude Code or Cursor expects. Delete the file for a new one.
 *
 * The token itself is never logged: the log names the file. When the file cannot be written (a
 * read-only home) the server does not start, and says to set AUTH_TOKEN.
 */
import { randomBytes } from "node:crypto";
import { link, mkdir, open, readFile, stat, unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { Logger } from "../common/logger.ts";
import { StartupError } from "./startup-error.ts";
import { minimumExposedTokenLength, unusableBearer } from "./adapter-settings.ts";
import { messageOf } from "../common/named-error.ts";

export type AuthTokenSource = { kind: "env" } | { kind: "file"; path: string; created: boolean };

export interface AuthToken {
  token: string;
  source: AuthTokenSource;
}

export function authTokenFilePath(env: NodeJS.ProcessEnv): string {
  const configHome = env["XDG_CONFIG_HOME"]?.trim() || join(homedir(), ".config");
  return join(configHome, "openclaw-fitness", "mcp-auth-token");
}

export async function resolveAuthToken(env: NodeJS.ProcessEnv, logger: Logger): Promise<AuthToken> {
  const fromEnv = env["AUTH_TOKEN"]?.trim();
  if (fromEnv) {
    // Checked for what it may hold by httpSettingsFromEnv; short is refused beyond loopback, said here.
    if (fromEnv.length < minimumExposedTokenLength) {
      logger.warn("auth_token_short", {
        message: `AUTH_TOKEN has ${fromEnv.length} characters: fine on loopback, guessable anywhere else; the server refuses it when HOST is not a loopback address.`,
      });
    }
    return { token: fromEnv, source: { kind: "env" } };
  }

  const path = authTokenFilePath(env);
  try {
    const kept = await readKeptToken(path, logger);
    if (kept !== undefined) {
      logger.info("auth_token_loaded", { file: path, message: "AUTH_TOKEN is not set: using the token kept in this file (clients send Authorization: Bearer <its content>)." });
      return { token: kept, source: { kind: "file", path, created: false } };
    }
    const token = randomBytes(32).toString("base64url");
    const written = await writeNewToken(path, token);
    if (!written) return resolveAuthToken(env, logger); // another server created it a moment ago: use theirs
    logger.warn("auth_token_generated", {
      file: path,
      message: "AUTH_TOKEN is not set, so a token was generated and kept in this file (mode 0600); it stays the same across restarts. Clients send Authorization: Bearer <its content>. Set AUTH_TOKEN to choose your own, or delete the file for a new one.",
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
  if (token === "" || unusableBearer(token) !== undefined) {
    throw new StartupError(`${path} must hold one token on one line (it is what clients send after "Bearer "); fix it, or delete it for a new one.`);
  }
  const { mode } = await stat(path);
  if ((mode & 0o077) !== 0) {
    logger.warn("auth_token_file_open", { file: path, mode: (mode & 0o777).toString(8), message: `Other users can read the bearer token: chmod 600 ${path}` });
  }
  return token;
}

/**
 * Creates the file with the token, complete or not at all: written to a temporary file, then linked to
 * its name (which fails if the name exists). False when another server created it first.
 */
async function writeNewToken(path: string, token: string): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, "w", 0o600);
  try {
    await handle.writeFile(`${token}\n`, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => {});
  }
}
