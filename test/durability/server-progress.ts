/**
 * How long a server process has waited for a processor it wanted, from Linux's /proc: the time its main
 * thread (where the JavaScript runs) has spent runnable but not running, queued behind other processes
 * (`/proc/PID/schedstat`, second field, nanoseconds).
 *
 * The kill scenario subtracts it so that "5 ms after the token arrived" means 5 ms of the server's own
 * time: running its own work or waiting for its own I/O count, being kept off the processors by the rest of
 * the machine does not. Otherwise a busy machine could turn scheduling into a lost token.
 */
import { readFileSync } from "node:fs";

/** Nanoseconds the main thread of `pid` has waited on a run queue, or undefined once the process is gone. */
export function runQueueWaitNs(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[1]);
  } catch {
    return undefined;
  }
}
