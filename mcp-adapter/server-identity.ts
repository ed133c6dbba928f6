/**
 * The name and version the MCP server announces (initialize result, /health), read once from the
 * package's own package.json so a release bump needs no code change. The file is found by walking up
 * from this module, so the same code works from the sources (tsx) and from a compiled copy (dist/).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface ServerIdentity {
  name: string;
  version: string;
}

export function readServerIdentity(startDirectory: string = dirname(fileURLToPath(import.meta.url))): ServerIdentity {
  let directory = startDirectory;
  for (;;) {
    const candidate = join(directory, "package.json");
    if (existsSync(candidate)) {
      const parsed = JSON.parse(readFileSync(candidate, "utf8")) as { name?: unknown; version?: unknown };
      if (typeof parsed.name !== "string" || typeof parsed.version !== "string") {
        throw new Error(`${candidate} must have string "name" and "version" fields.`);
      }
      return { name: parsed.name, version: parsed.version };
    }
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`No package.json above ${startDirectory}: cannot tell the server's name and version.`);
    directory = parent;
  }
}
