/**
 * What the debriefs share within the gateway process, whichever copy of the plugin is asking. The host
 * may load the plugin more than once in one process (the registry whose service runs the checks, and another
 * it builds a turn's tools from), and each load has its own modules; so what must be one per process lives
 * on `globalThis` under a registered symbol: the queue of changes to each record file (a change reads the
 * file, applies, writes, one at a time), the write calls of the coach's in progress, and the listeners told
 * when the athlete switches debriefs.
 */
interface ProcessWide {
  /** The last change queued per record file path. */
  queues: Map<string, Promise<unknown>>;
  writesInFlight: number;
  switched: Set<() => void>;
}

const key = Symbol.for("openclaw-fitness.debriefs.process-wide");

export function processWide(): ProcessWide {
  const holder = globalThis as typeof globalThis & { [key]?: ProcessWide };
  holder[key] ??= { queues: new Map(), writesInFlight: 0, switched: new Set() };
  return holder[key];
}

/** Runs `work` after every change queued before it for `path` (whatever their outcome). */
export function queued<T>(path: string, work: () => Promise<T>): Promise<T> {
  const { queues } = processWide();
  const previous = queues.get(path) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(work);
  const settled = next.catch(() => undefined);
  queues.set(path, settled);
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return next;
}
