/**
 * The V8 heap of another Node process, read through its inspector (that process started with
 * `--inspect=127.0.0.1:0`): a full garbage collection forced there, then its heap in use. The server under
 * measurement needs no hook of its own, and the measurement sees only its heap, not the load generator's
 * or the upstream fake's.
 */
import { setTimeout as sleep } from "node:timers/promises";

export interface InspectedHeap {
  /** Heap in use after collection, once the process has settled (see `settledHeapUsed`). */
  settledHeapUsed(): Promise<{ bytes: number; samples: number[] }>;
  close(): void;
}

/** The inspector's WebSocket address from a line Node prints on standard error, or undefined. */
export function inspectorUrl(stderrLine: string): string | undefined {
  return /^Debugger listening on (ws:\/\/\S+)$/.exec(stderrLine)?.[1];
}

export async function inspectHeap(webSocketUrl: string): Promise<InspectedHeap> {
  const socket = new WebSocket(webSocketUrl);
  const pending = new Map<number, PromiseWithResolvers<Record<string, unknown>>>();
  let nextId = 1;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id!);
    if (message.error) waiting.reject(new Error(`inspector: ${message.error.message}`));
    else waiting.resolve(message.result ?? {});
  });
  socket.addEventListener("close", () => {
    for (const waiting of pending.values()) waiting.reject(new Error("inspector: the connection closed (did the process exit?)"));
    pending.clear();
  });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error(`inspector: cannot connect to ${webSocketUrl}`)), { once: true });
  });

  const send = (method: string): Promise<Record<string, unknown>> => {
    const id = nextId++;
    const waiting = Promise.withResolvers<Record<string, unknown>>();
    pending.set(id, waiting);
    socket.send(JSON.stringify({ id, method }));
    return waiting.promise;
  };
  const collectedHeapUsed = async (): Promise<number> => {
    await send("HeapProfiler.collectGarbage");
    return (await send("Runtime.getHeapUsage"))["usedSize"] as number;
  };

  return {
    /**
     * Why not one collection: right after the last answer arrives, the server has not finished with its
     * exchanges (sockets, streams and per-request servers still referenced by callbacks that run on its
     * next turns of the event loop), and how much is still pending depends on how busy the machine is.
     * So: collect, let the process run a while, collect again, until the heap in use stops falling; the
     * lowest reading is the one taken once it has drained.
     */
    async settledHeapUsed() {
      const samples = [await collectedHeapUsed()];
      let lowest = samples[0]!;
      let steady = 0;
      while (steady < 3 && samples.length < 20) {
        await sleep(100);
        const bytes = await collectedHeapUsed();
        samples.push(bytes);
        // Less than 32 KB lower: settled (the inspector's own replies allocate a little each time).
        steady = bytes > lowest - 32 * 1024 ? steady + 1 : 0;
        lowest = Math.min(lowest, bytes);
      }
      return { bytes: lowest, samples };
    },
    close: () => socket.close(),
  };
}
