/**
 * Log lines written in one turn of the event loop leave in one write.
 *
 * Why: a busy MCP server logs a line per tool call, and on Linux Node writes standard error synchronously
 * to pipes, files and terminals, so every line is a system call on the request path. Under load several
 * calls finish in the same turn; joining their lines saves a system call each (see BENCHMARKS.md).
 *
 * What it keeps: the order of lines; a line is out within the turn that wrote it (flushed from
 * `setImmediate`, no timer); `flush()` writes at once (the logger calls it after warnings and errors, so
 * the line that explains a crash is out before the crash); whatever is pending when the process exits is
 * written by one `exit` listener (standard error is synchronous there). Memory is bounded: a batch past
 * `maxPendingChars` is written at once. What no buffer can keep: the lines of the current turn when the
 * process is killed by a signal it cannot handle (SIGKILL).
 */
export interface LineSink {
  write(text: string): unknown;
}

export interface BatchedLineWriter extends LineSink {
  /** Writes whatever is pending, now. */
  flush(): void;
}

const defaultMaxPendingChars = 64 * 1024;

/** Writers holding lines, flushed by the one exit listener. */
const holding = new Set<BatchedLineWriter>();
let exitHooked = false;

export function createBatchedLineWriter(sink: LineSink, options: { maxPendingChars?: number } = {}): BatchedLineWriter {
  const maxPendingChars = options.maxPendingChars ?? defaultMaxPendingChars;
  let pending = "";
  let scheduled: NodeJS.Immediate | undefined;

  const writer: BatchedLineWriter = {
    write(text) {
      pending += text;
      if (pending.length >= maxPendingChars) {
        writer.flush();
        return;
      }
      if (scheduled !== undefined) return;
      // A pending line never keeps the process alive: the exit listener writes it.
      scheduled = setImmediate(writer.flush).unref();
      holding.add(writer);
      if (!exitHooked) {
        exitHooked = true;
        process.once("exit", () => {
          for (const held of holding) held.flush();
        });
      }
    },
    flush() {
      if (scheduled !== undefined) {
        clearImmediate(scheduled);
        scheduled = undefined;
      }
      holding.delete(writer);
      if (pending === "") return;
      const text = pending;
      pending = "";
      sink.write(text);
    },
  };
  return writer;
}
