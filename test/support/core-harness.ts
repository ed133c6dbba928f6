/**
 * Builds the real core (token manager, upstream client, athlete lookup) over a real token file in a
 * temporary directory, with every log line captured, for tests that fake only the network (undici's
 * MockAgent as the connection layer, or a local server).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { Dispatcher } from "undici";
import { createJsonLogger, type Logger } from "../../common/logger.ts";
import { createToolDeps, type ToolDeps } from "../../tools/runner/create-tool-deps.ts";
import { createHttpSender } from "../../common/upstream/http-exchange.ts";
import { TokenFileStore } from "../../credentials/stores/token-file-store.ts";
import type { StoredCredentials } from "../../credentials/credential-store.ts";
import type { UpstreamSettings } from "../../strava/strava-settings.ts";
import { runTool } from "../../tools/runner/run-tool.ts";
import { toolTable } from "../../tools/table.ts";
import type { ToolResult } from "../../tools/runner/tool-result.ts";

/** A logger whose JSON lines are kept in `lines` (every level, debug included). */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: createJsonLogger(stream, "debug"), lines };
}

export interface FileBackedCore {
  deps: ToolDeps;
  store: TokenFileStore;
  path: string;
  logs: string[];
  stored(): Promise<Record<string, unknown>>;
  call(toolName: string, args?: unknown, signal?: AbortSignal): Promise<ToolResult>;
  cleanup(): Promise<void>;
}

export async function fileBackedCore(options: {
  credentials: Partial<StoredCredentials>;
  settings?: Partial<UpstreamSettings>;
  now?: () => number;
  maxConcurrentRequests?: number;
  /** The connection layer under the real HTTP seam (a MockAgent); default: real connections. */
  dispatcher?: Dispatcher;
}): Promise<FileBackedCore> {
  const directory = await mkdtemp(join(tmpdir(), "fitness-core-"));
  const path = join(directory, "tokens.json");
  await writeFile(path, JSON.stringify(options.credentials), { mode: 0o600 });
  const store = new TokenFileStore({ path });
  const { logger, lines } = capturingLogger();
  // A store deadline of 1 s: a refused refresh token waits that long for another process's save before it
  // is called dead, and no test here has another process.
  const settings = { storeTimeoutMs: 1_000, ...options.settings };
  const http = options.dispatcher ? createHttpSender({ dispatcher: options.dispatcher }) : undefined;
  const deps = createToolDeps({ store, logger, settings, now: options.now, maxConcurrentRequests: options.maxConcurrentRequests, http });
  return {
    deps,
    store,
    path,
    logs: lines,
    stored: async () => JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>,
    call: (toolName, args, signal) => runTool(toolNamed(toolName), args, deps, signal),
    cleanup: () => rm(directory, { recursive: true, force: true }),
  };
}

export function toolNamed(name: string) {
  const tool = toolTable.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool named ${name}`);
  return tool;
}

/** The text of a tool result (the one content item). */
export function textOf(result: ToolResult): string {
  return result.content[0].text;
}
