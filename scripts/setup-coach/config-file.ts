/**
 * Reading and safely rewriting the host's config file (openclaw.json, JSON5 syntax).
 */
import { constants } from "node:fs";
import { copyFile, readFile, stat } from "node:fs/promises";
import { writeFileDurably } from "../../common/durable-file.ts";
import JSON5 from "json5";
import { isJsonObject, type JsonObject } from "./json-tree.ts";
import { CoachSetupError } from "./setup-error.ts";

export interface LoadedConfig {
  /** The parsed config; `{}` when the file does not exist yet. */
  config: JsonObject;
  exists: boolean;
  /** True when the text needed JSON5 (comments, trailing commas...): rewriting loses that formatting. */
  usesJson5Syntax: boolean;
}

export async function loadHostConfig(file: string): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { config: {}, exists: false, usesJson5Syntax: false };
    throw error;
  }
  if (text.trim() === "") return { config: {}, exists: true, usesJson5Syntax: false };
  let parsed: unknown;
  try {
    parsed = JSON5.parse(text);
  } catch (error) {
    throw new CoachSetupError(
      `${file} is not valid JSON5 (${(error as Error).message}); fix it (openclaw config validate shows where) and run setup again.`,
    );
  }
  if (!isJsonObject(parsed)) throw new CoachSetupError(`${file} must hold a JSON object at the top level`);
  return { config: parsed, exists: true, usesJson5Syntax: !isPlainJson(text) };
}

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Copies `file` to `file.bak-<UTC timestamp>` without ever replacing an older backup; returns its path. */
export async function backupHostConfig(file: string, now: Date = new Date()): Promise<string> {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(".", "");
  for (let attempt = 0; ; attempt += 1) {
    const target = `${file}.bak-${stamp}${attempt === 0 ? "" : `-${attempt}`}`;
    try {
      await copyFile(file, target, constants.COPYFILE_EXCL);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/** Writes the config as formatted JSON through a temporary file and a rename (common/durable-file.ts), keeping the file's mode (0600 for a new file). */
export async function writeHostConfig(file: string, config: JsonObject): Promise<void> {
  const mode = await stat(file).then(
    (info) => info.mode & 0o777,
    () => 0o600,
  );
  await writeFileDurably(file, `${JSON.stringify(config, null, 2)}\n`, { mode });
}
