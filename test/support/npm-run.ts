/**
 * A command as a person types it, run as a real process from the checkout: `npm run ...` itself (npm, then
 * the script's own processes), or a line the project printed for copying (`NAME=value ... npm run ...`),
 * its leading assignments going into the environment as a shell would put them. Everything the process
 * writes is kept, standard output and standard error apart, for waiting on a line and for the
 * assertions on what a person reads.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { repositoryRoot } from "../mcp-adapter/mcp-child.ts";

export interface NpmRun {
  readonly process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has exited and all its output is read. */
  readonly exited: Promise<number | string>;
  /** The first match of `pattern` in standard output or standard error (waits for it; fails when the process exits first). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends `signal` (SIGTERM) unless the process already exited, and resolves with how it exited. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** `npm ARGS` in the checkout, with exactly `env` as its environment. */
export function runNpm(args: string[], env: Record<string, string>): NpmRun {
  return watch(spawn("npm", args, { cwd: repositoryRoot, env, stdio: ["ignore", "pipe", "pipe"] }));
}

/**
 * A printed command line (`A=1 B=2 npm run x -- --flag value`), run the way a shell runs it: the leading
 * assignments over `env`, then the command. The project prints such lines with shell-safe words only
 * (common/shell-quote.ts); a quoted word here means the printout changed and this helper must learn it.
 */
export function runPrintedCommand(line: string, env: Record<string, string>): NpmRun {
  const words = line.trim().split(/\s+/);
  if (words.some((word) => /['"\\$`]/.test(word))) throw new Error(`runPrintedCommand reads plain words only: ${line}`);
  const assignments: Record<string, string> = {};
  while (words[0] !== undefined && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const word = words.shift() as string;
    assignments[word.slice(0, word.indexOf("="))] = word.slice(word.indexOf("=") + 1);
  }
  const [command, ...args] = words;
  if (command === undefined) throw new Error(`no command in: ${line}`);
  return watch(spawn(command, args, { cwd: repositoryRoot, env: { ...env, ...assignments }, stdio: ["ignore", "pipe", "pipe"] }));
}

/**
 * A printed command line run under a pseudo-terminal (util-linux `script`), as a person at a terminal runs it: for
 * programs that act only when a person is there (the MCP Inspector signs in only with a terminal). The line goes to
 * `sh -c` as typed; what the terminal shows arrives on standard output, with its carriage returns and escapes.
 */
export function runInTerminal(line: string, env: Record<string, string>): NpmRun {
  return watch(
    spawn("script", ["--quiet", "--return", "--command", line, "/dev/null"], {
      cwd: repositoryRoot,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

function watch(child: ChildProcess): NpmRun {
  let out = "";
  let err = "";
  const listeners = new Set<() => void>();
  const changed = (): void => {
    for (const listener of listeners) listener();
  };
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
    changed();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
    changed();
  });
  // Its output is read in full only once its pipes close, which may come after 'exit'. A process it left behind
  // can hold them open for good: then the exit, two seconds on, is the end (the test finds that process).
  const closed = new Promise<number | string>((resolve) => child.once("close", (code, signal) => resolve(code ?? signal ?? "unknown")));
  const exitOnly = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  const exited = Promise.race([
    closed,
    exitOnly.then((code) => new Promise<number | string>((resolve) => setTimeout(() => resolve(code), 2000).unref())),
  ]);
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (pattern, timeoutMs = 45_000) =>
      new Promise((resolve, reject) => {
        const find = (): RegExpMatchArray | null => pattern.exec(out) ?? pattern.exec(err);
        const found = find();
        if (found) return resolve(found);
        const done = (settle: () => void): void => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        const check = (): void => {
          const match = find();
          if (match) done(() => resolve(match));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}\n${err}`))), timeoutMs);
        listeners.add(check);
        void closed.then((code) => {
          if (listeners.has(check)) done(() => reject(new Error(`exited (${code}) before printing ${pattern}:\n${out}\n${err}`)));
        });
      }),
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
