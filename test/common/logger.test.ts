/**
 * The one logger (common/logger.ts): its line format, level filter, error and secret handling, and, in a
 * real process writing to a pipe, that warnings are out at once and nothing pending is lost at exit; writing
 * to a file, that every line is out at once with no disk flush after warnings.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createJsonLogger } from "../../common/logger.ts";

const root = resolve(import.meta.dirname, "../..");

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      written
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe("logger", () => {
  it("writes one JSON object per line: level, ISO time, base fields, fields, event; below the level nothing", () => {
    const { stream, lines } = capture();
    const logger = createJsonLogger(stream, "info", { service: "test" });
    logger.debug("below_the_level", { a: 1 });
    logger.info("tool_call", { tool: "get_athlete", ms: 1.5 });
    logger.info("bare");
    expect(lines()).toEqual([
      {
        level: "info",
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        service: "test",
        tool: "get_athlete",
        ms: 1.5,
        event: "tool_call",
      },
      { level: "info", time: expect.any(String), service: "test", event: "bare" },
    ]);
  });

  it("writes an error as its name and message (no stack) and a field named like a secret as [redacted]", () => {
    const { stream, lines } = capture();
    const logger = createJsonLogger(stream, "debug");
    const error = new TypeError("bad thing");
    logger.error("failed", {
      error,
      refresh_token: "rt-secret",
      access_token: "at-secret",
      client_secret: "cs",
      code: "oauth-code",
      headers: { authorization: "Bearer x" },
    });
    const [line] = lines();
    expect(line).toMatchObject({ level: "error", event: "failed", error: { name: "TypeError", message: "bad thing" } });
    expect(JSON.stringify(line)).not.toMatch(/stack|rt-secret|at-secret|"cs"|oauth-code|Bearer x/);
    expect(line).toMatchObject({
      refresh_token: "[redacted]",
      access_token: "[redacted]",
      client_secret: "[redacted]",
      code: "[redacted]",
      headers: { authorization: "[redacted]" },
    });
  });

  it("keeps a number or boolean under a secret's name, which no secret is: a JSON-RPC error's code is written as it is", () => {
    const { stream, lines } = capture();
    const logger = createJsonLogger(stream, "debug");
    logger.warn("mcp_stdio_refused", {
      code: -32700,
      bytes: 9,
      message: "Parse error",
      error: { code: -32600 },
      flags: { authorization: false },
    });
    logger.warn("oauth", { code: "a-code-value", nested: { code: "another-code" } });
    const [refused, oauth] = lines();
    expect(refused).toMatchObject({ code: -32700, error: { code: -32600 }, flags: { authorization: false } });
    expect(oauth).toMatchObject({ code: "[redacted]", nested: { code: "[redacted]" } });
  });

  it("redacts a secret one level down and a capitalised Authorization, and writes an err field without its stack", () => {
    const { stream, lines } = capture();
    const logger = createJsonLogger(stream, "debug");
    logger.warn("nested", {
      tokens: { refresh_token: "rt-nested" },
      headers: { Authorization: "Bearer y" },
      Authorization: "Bearer z",
      err: new Error("boom"),
    });
    const [line] = lines();
    expect(JSON.stringify(line)).not.toMatch(/rt-nested|Bearer y|Bearer z|stack/);
    expect(line).toMatchObject({
      tokens: { refresh_token: "[redacted]" },
      headers: { Authorization: "[redacted]" },
      err: { name: "Error", message: "boom" },
    });
  });

  it("redacts an intervals.icu API key under either spelling, at the top level or one level down", () => {
    const { stream, lines } = capture();
    const logger = createJsonLogger(stream, "debug");
    logger.info("settings", { apiKey: "k-top", intervals: { api_key: "k-nested" } });
    const [line] = lines();
    expect(JSON.stringify(line)).not.toMatch(/k-top|k-nested/);
    expect(line).toMatchObject({ apiKey: "[redacted]", intervals: { api_key: "[redacted]" } });
  });

  it("redacts the field a token file or secret keeps intervals.icu's key in, intervals_api_key", () => {
    const { stream, lines } = capture();
    const logger = createJsonLogger(stream, "debug");
    logger.info("record", { intervals_api_key: "k-field", record: { intervals_api_key: "k-field-nested" } });
    const [line] = lines();
    expect(JSON.stringify(line)).not.toMatch(/k-field/);
    expect(line).toMatchObject({ intervals_api_key: "[redacted]", record: { intervals_api_key: "[redacted]" } });
  });

  /** Runs `body` in a Node process whose standard error is a pipe (as under a supervisor or an MCP client). */
  function run(body: string, onStderr: (stderr: string) => void = () => {}): Promise<{ stderr: string; code: number | null }> {
    const script = `import { createJsonLogger } from "./common/logger.ts"; const logger = createJsonLogger(undefined, "info"); ${body}`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr(stderr);
    });
    return new Promise((done) => child.on("close", (code) => done({ stderr, code })));
  }

  const events = (stderr: string): unknown[] =>
    stderr
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { event: string }).event);

  it("writes a warning at once with the lines before it, even when the process then stops answering", async () => {
    // After the warning the event loop is blocked for 6 s: lines still waiting for it would come out only then.
    let warnedAt: number | undefined;
    const started = Date.now();
    const outcome = await run(
      `logger.info("one"); logger.info("two"); logger.warn("three"); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6000);`,
      (stderr) => {
        if (warnedAt === undefined && stderr.includes('"three"')) warnedAt = Date.now();
      },
    );
    const exited = Date.now();
    expect(outcome.code).toBe(0);
    expect([...events(outcome.stderr)].sort()).toEqual(["one", "three", "two"]);
    expect(warnedAt, "the warning arrived").toBeDefined();
    expect(
      exited - warnedAt!,
      `the warning came ${warnedAt! - started} ms after the start, the exit ${exited - started} ms`,
    ).toBeGreaterThan(3_000);
  }, 30_000);

  it("with standard error redirected to a file: every line written at once, and no flush to the disk after a warning", async () => {
    // sonic-boom's flushSync, which the pipe destination offers for warnings, ends with an fsync: with a file
    // behind standard error that is a disk flush per warning, so the file destination does not offer it.
    const directory = mkdtempSync(join(tmpdir(), "logger-file-"));
    const file = join(directory, "stderr.log");
    const fd = openSync(file, "a");
    try {
      const script =
        `import { createJsonLogger, stderrLogDestination } from "./common/logger.ts"; const destination = stderrLogDestination(); ` +
        `const logger = createJsonLogger(destination, "info"); logger.info("offers", { flushSync: typeof destination.flushSync }); ` +
        `logger.info("one"); logger.warn("two"); logger.info("three"); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4000);`;
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        cwd: root,
        stdio: ["ignore", "ignore", fd],
      });
      const exited = new Promise<number | null>((done) => child.on("close", done));
      // While the process is blocked, the file already holds every line, the info after the warning included.
      let seen: unknown[] = [];
      for (const started = Date.now(); Date.now() - started < 30_000 && seen.length < 4;) {
        await new Promise((next) => setTimeout(next, 50));
        const text = readFileSync(file, "utf8");
        seen = text.endsWith("\n") ? events(text) : seen;
      }
      const stillRunning = child.exitCode === null;
      expect(await exited).toBe(0);
      expect(seen).toEqual(["offers", "one", "two", "three"]);
      expect(stillRunning, "the lines were in the file before the process ended").toBe(true);
      expect(JSON.parse(readFileSync(file, "utf8").split("\n")[0]!)).toMatchObject({ flushSync: "undefined" });
    } finally {
      closeSync(fd);
      rmSync(directory, { recursive: true, force: true });
    }
  }, 30_000);

  it("writes what is pending when the process exits, by itself or by process.exit", async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `logger.info("line", { i: ${i} });`).join(" ");
    for (const ending of ["", "process.exit(3);"]) {
      const outcome = await run(`${lines} ${ending}`);
      expect(outcome.code).toBe(ending === "" ? 0 : 3);
      const written = outcome.stderr
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { i: number }).i);
      expect(written).toEqual(Array.from({ length: 200 }, (_, i) => i));
    }
  }, 30_000);
});
