/**
 * The processes under a process (Linux's /proc), and whether one still runs: for the tests that stop an
 * `npm run` script and check that nothing it started is left behind. A zombie (exited, not yet reaped by its
 * new parent) counts as gone: it holds no port and runs no code.
 */
import { readFileSync } from "node:fs";
import { connect } from "node:net";

/** Every process below `pid` (children, their children, ...), read now. */
export function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** Whether `pid` is a running process (not a zombie), and its command line. */
export function running(pid: number): { running: boolean; command: string } {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0];
    return { running: state !== "Z" && state !== "X", command: readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim() };
  } catch {
    return { running: false, command: "" };
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
