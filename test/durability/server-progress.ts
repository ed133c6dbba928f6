/**
 * Whether a server process has had the processor since a moment, from Linux's /proc: the time its main
 * thread (where the JavaScript runs) has spent on a CPU (`/proc/PID/schedstat`, nanoseconds) and whether it
 * is asleep waiting for something (`/proc/PID/stat` state S) rather than running or waiting for a CPU.
 *
 * The kill scenario uses it so that "5 ms after the token arrived" means 5 ms the server could use: on a
 * machine whose other work keeps the server off the processors, 5 ms of wall time can be no time at all
 * for the server, and a kill then says nothing about what the server does with a token.
 */
import { readFileSync } from "node:fs";

/** Nanoseconds the main thread of `pid` has run, or undefined once the process is gone. */
export function onCpuNs(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return undefined;
  }
}

/** Whether the main thread of `pid` is asleep (waiting on I/O or a timer), not running or runnable. */
export function isAsleep(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "S";
  } catch {
    return false;
  }
}
