import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createBatchedLineWriter } from "../../tools/batched-line-writer.ts";
import { createJsonLogger } from "../../common/logger.ts";

const root = resolve(import.meta.dirname, "../..");
const nextTurn = (): Promise<void> => new Promise((done) => setImmediate(done));

/** A sink that records every write it receives, as one string each. */
function recordingSink(): { writes: string[]; write(text: string): void } {
  const writes: string[] = [];
  return { writes, write: (text) => void writes.push(text) };
}

describe("batched line writer", () => {
  it("joins the lines of one event-loop turn into one write, in order, and writes nothing before the turn ends", async () => {
    const sink = recordingSink();
    const writer = createBatchedLineWriter(sink);
    writer.write("one\n");
    writer.write("two\n");
    await Promise.resolve(); // microtasks of the same turn do not flush
    writer.write("three\n");
    expect(sink.writes).toEqual([]);
    await nextTurn();
    expect(sink.writes).toEqual(["one\ntwo\nthree\n"]);
    writer.write("four\n");
    await nextTurn();
    expect(sink.writes).toEqual(["one\ntwo\nthree\n", "four\n"]);
  });

  it("writes at once on flush(), and a later turn finds nothing left to write", async () => {
    const sink = recordingSink();
    const writer = createBatchedLineWriter(sink);
    writer.write("a\n");
    writer.flush();
    expect(sink.writes).toEqual(["a\n"]);
    writer.flush();
    await nextTurn();
    expect(sink.writes).toEqual(["a\n"]);
  });

  it("writes a batch that outgrows maxPendingChars at once", () => {
    const sink = recordingSink();
    const writer = createBatchedLineWriter(sink, { maxPendingChars: 10 });
    writer.write("12345\n");
    expect(sink.writes).toEqual([]);
    writer.write("67890\n");
    expect(sink.writes).toEqual(["12345\n67890\n"]);
  });

  it("through the logger: info lines wait for the turn, a warning or an error takes them out with it at once", () => {
    const sink = recordingSink();
    const logger = createJsonLogger(createBatchedLineWriter(sink), "info");
    logger.info("first");
    logger.debug("below the level");
    expect(sink.writes).toEqual([]);
    logger.error("failed", { error: new Error("boom") });
    expect(sink.writes).toHaveLength(1);
    const events = sink.writes[0]!.trimEnd().split("\n").map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events).toEqual(["first", "failed"]);
  });

  it("writes what is pending when the process exits, whether it ends by itself or calls process.exit", async () => {
    const script = (ending: string): string =>
      `import { createBatchedLineWriter } from "./tools/batched-line-writer.ts";
       const writer = createBatchedLineWriter(process.stderr);
       writer.write("written before exit\\n");
       ${ending}`;
    for (const ending of ["", "process.exit(3);"]) {
      const run = promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script(ending)], { cwd: root });
      const outcome = await run.then(
        ({ stderr }) => ({ code: 0, stderr }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
      expect(outcome).toEqual({ code: ending === "" ? 0 : 3, stderr: "written before exit\n" });
    }
  });
});
