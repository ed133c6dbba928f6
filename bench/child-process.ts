/**
 * Starting the processes under measurement (TypeScript entry points through tsx, as `npm start` runs
 * them) and reading their resource use from /proc: peak resident memory (VmHWM) and CPU time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";

export interface StartedChild {
  child: ChildProcess;
  pid: number;
  /** The first line on `stream` that `ready` accepted. */
  readyLine: string;
  /** Every line seen on standard error so far. */
  stderrLines: string[];
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function startTsChild(options: {
  script: string;
  args?: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stream: "stdout" | "stderr";
  ready: (line: string) => boolean;
  timeoutMs?: number;
  /** Run `script` (compiled JavaScript) with plain node instead of through tsx. */
  plainNode?: boolean;
  /** Node/V8 flags, before the script (as `tsx FLAGS script` passes them). */
  nodeFlags?: string[];
}): Promise<StartedChild> {
  const flags = options.nodeFlags ?? [];
  const nodeArgs = options.plainNode ? [...flags, options.script] : [...flags, "--import", "tsx", options.script];
  const child = spawn(process.execPath, [...nodeArgs, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderrLines: string[] = [];
  const stdoutLines = createInterface({ input: child.stdout! });
  const errLines = createInterface({ input: child.stderr! });
  errLines.on("line", (line) => stderrLines.push(line));
  const readyLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`${options.script} did not become ready within ${options.timeoutMs ?? 60_000} ms:\n${stderrLines.join("\n")}`)),
      options.timeoutMs ?? 60_000,
    );
    const source = options.stream === "stdout" ? stdoutLines : errLines;
    source.on("line", (line) => {
      if (options.ready(line)) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.script} exited (${code}) before it was ready:\n${stderrLines.join("\n")}`));
    });
  });
  // Keep draining both pipes: a full pipe would block the child's synchronous writes.
  stdoutLines.on("line", () => {});
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    pid: child.pid!,
    readyLine,
    stderrLines,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Peak and current resident set size in MiB, from /proc/PID/status. */
export function memoryMiB(pid: number): { peak: number; current: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { peak: kib("VmHWM") / 1024, current: kib("VmRSS") / 1024 };
}

/** User + system CPU time of a process in milliseconds, from /proc/PID/stat (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Time a process has run on a CPU so far, in milliseconds to the microsecond: the sum over its threads alive
 * now of /proc/PID/task/TID/schedstat's first field (nanoseconds). Less moved by other work on the machine
 * than wall time, which includes the time a start waited for a core.
 */
export function cpuTimeMs(pid: number): number {
  let nanoseconds = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return nanoseconds / 1e6;
}
