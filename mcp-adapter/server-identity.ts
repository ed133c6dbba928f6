/**
 * The name and version the MCP server announces (initialize result, /health), read once from the
 * package's own package.json so a release bump needs no code change.
 */
import { readFileSync } from "node:fs";

export interface ServerIdentity {
  name: string;
  version: string;
}

export function readServerIdentity(packageJsonUrl: URL = new URL("../package.json", import.meta.url)): ServerIdentity {
  const parsed = JSON.parse(readFileSync(packageJsonUrl, "utf8")) as { name?: unknown; version?: unknown };
  if (typeof parsed.name !== "string" || typeof parsed.version !== "string") {
    throw new Error(`${packageJsonUrl.pathname} must have string "name" and "version" fields.`);
  }
  return { name: parsed.name, version: parsed.version };
}
