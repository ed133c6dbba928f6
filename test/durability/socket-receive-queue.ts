/**
 * How many bytes wait in a loopback TCP connection's receive queue, unread by the process that owns
 * it: Linux's /proc/net/tcp (`rx_queue`). A token answer has reached a server once its bytes have left
 * the queue (the server read them), which is the moment the kill scenario times its SIGKILL from, so
 * that a busy machine delaying the server cannot make a loss in transit look like the server's fault.
 */
import { readFileSync } from "node:fs";

/** Unread bytes on the client side of the 127.0.0.1 connection clientPort -> serverPort, or undefined if it is gone. */
export function unreadBytes(clientPort: number, serverPort: number): number | undefined {
  const local = `0100007F:${hex(clientPort)}`;
  const remote = `0100007F:${hex(serverPort)}`;
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields[1] !== local || fields[2] !== remote) continue;
    const queues = fields[4]?.split(":");
    return queues?.[1] === undefined ? undefined : Number.parseInt(queues[1], 16);
  }
  return undefined;
}

function hex(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * Resolves with performance.now() at the first moment the connection's receive queue is seen empty
 * (the server has read the answer), or undefined when `giveUpMs` passes first (it never read it).
 */
export async function whenRead(clientPort: number, serverPort: number, giveUpMs: number): Promise<number | undefined> {
  const until = performance.now() + giveUpMs;
  for (;;) {
    const unread = unreadBytes(clientPort, serverPort);
    if (unread === undefined || unread === 0) return performance.now();
    if (performance.now() > until) return undefined;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
