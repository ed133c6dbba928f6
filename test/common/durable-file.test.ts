/**
 * common/durable-file.ts as the kernel sees it. A writer runs as a child process under strace, which records
 * its system calls on the test's folder (with `-y`, each file descriptor's path) and can kill it with SIGKILL,
 * or fail a call, at exactly one of them: so the order of the steps (the temporary file created 0600 with
 * O_EXCL, written, flushed, renamed over the file, the folder flushed) is observed as it happened, and a crash
 * at each step is made to happen rather than hoped for. After every kill the file is the old one whole, or the
 * new one whole, or (for a first write) absent.
 *
 * Without strace these cases are skipped, saying so (`apt-get install strace`); in CI (`CI` set) its absence
 * fails instead. The modes are checked in process.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileDurably, writeFileDurably, writeFileDurablySync } from "../../common/durable-file.ts";

const helper = fileURLToPath(new URL("../../common/durable-file.ts", import.meta.url));

function straceWorks(): boolean {
  try {
    execFileSync("strace", ["-qq", "-e", "trace=none", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const hasStrace = straceWorks();
if (!hasStrace) console.warn("SKIPPED: the durable-file crash and order tests need strace (apt-get install strace)");

let folder: string;
beforeEach(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), "durable-file-")));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

type Call = "write" | "writeSync" | "create" | "writeUnflushed";

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** The system calls on the test's folder, in the order they were entered, temporary names shown as <temporary>. */
  calls: string[];
}

/** Runs one call of the helper in a child under strace; `inject` is strace's own syntax (`rename:signal=SIGKILL`). */
function runUnderStrace(call: Call, target: string, content: string, inject?: string): Run {
  const log = join(tmpdir(), `durable-file-${process.pid}-${Math.random().toString(16).slice(2)}.strace`);
  const script = [
    `import { createFileDurably, writeFileDurably, writeFileDurablySync } from ${JSON.stringify(helper)};`,
    `const [target, content] = [process.env.DURABLE_TARGET, process.env.DURABLE_CONTENT];`,
    `const call = process.env.DURABLE_CALL;`,
    `if (call === "write") await writeFileDurably(target, content);`,
    `if (call === "writeUnflushed") await writeFileDurably(target, content, { flush: false });`,
    `if (call === "writeSync") writeFileDurablySync(target, content);`,
    `if (call === "create") process.stdout.write(String(await createFileDurably(target, content)));`,
  ].join("\n");
  const args = ["-f", "-qq", "-y", "-o", log, "-e", "trace=openat,write,fsync,fdatasync,rename,link,unlink"];
  if (inject !== undefined) args.push("-e", `inject=${inject}`);
  args.push(process.execPath, "--input-type=module", "-e", script);
  const child = spawnSync("strace", args, {
    env: { PATH: process.env.PATH ?? "", DURABLE_TARGET: target, DURABLE_CONTENT: content, DURABLE_CALL: call },
    encoding: "utf8",
    timeout: 20_000,
  });
  const traced = readFileSync(log, "utf8");
  rmSync(log, { force: true });
  return { status: child.status, signal: child.signal, stderr: child.stderr, calls: callsOn(traced) };
}

/** strace's lines about the test's folder, reduced to `call path [flags mode]`. */
function callsOn(traced: string): string[] {
  const calls: string[] = [];
  for (const line of traced.split("\n")) {
    if (!line.includes(folder) || line.includes(" resumed>")) continue;
    const named = (text: string): string =>
      text.replaceAll(folder, "<folder>").replace(/<folder>\/(\w+)\.\d+\.[0-9a-f]+\.tmp/g, "<temporary of $1>");
    const open = /openat\([^,]+, "([^"]+)", ([A-Z_|]+)(?:, (0\d+))?/.exec(line);
    const onFd = /(write|fsync|fdatasync)\(\d+<([^>]+)>/.exec(line);
    const twoPaths = /(rename|link)\("([^"]+)", "([^"]+)"/.exec(line);
    const unlink = /unlink\("([^"]+)"/.exec(line);
    if (open) {
      const flags = open[2]!.split("|").filter((flag) => !["O_CLOEXEC", "O_LARGEFILE"].includes(flag));
      calls.push(named(`open ${open[1]} ${flags.join("|")}${open[3] ? ` ${open[3]}` : ""}`));
    } else if (onFd) calls.push(named(`${onFd[1]} ${onFd[2]}`));
    else if (twoPaths) calls.push(named(`${twoPaths[1]} ${twoPaths[2]} -> ${twoPaths[3]}`));
    else if (unlink) calls.push(named(`unlink ${unlink[1]}`));
  }
  return calls;
}

function leftovers(): string[] {
  return readdirSync(folder).sort();
}

describe.skipIf(!hasStrace)("the steps, as the kernel sees them", () => {
  it.each(["write", "writeSync"] as const)(
    "%s: temporary file 0600 with O_EXCL, written, flushed, renamed over the file, then the folder flushed",
    (call) => {
      const target = join(folder, "f");
      writeFileSync(target, "old\n");
      const run = runUnderStrace(call, target, "new content\n");
      expect(run.status, run.stderr).toBe(0);
      expect(run.calls).toEqual([
        "open <temporary of f> O_WRONLY|O_CREAT|O_EXCL 0600",
        "write <temporary of f>",
        "fsync <temporary of f>",
        "rename <temporary of f> -> <folder>/f",
        "open <folder> O_RDONLY",
        "fsync <folder>",
      ]);
      expect(readFileSync(target, "utf8")).toBe("new content\n");
      expect(leftovers()).toEqual(["f"]);
    },
  );

  it("create: linked into place (refused when the name exists), the temporary file removed, then the folder flushed", () => {
    const target = join(folder, "token");
    const first = runUnderStrace("create", target, "first\n");
    expect(first.status, first.stderr).toBe(0);
    expect(first.calls).toEqual([
      "open <temporary of token> O_WRONLY|O_CREAT|O_EXCL 0600",
      "write <temporary of token>",
      "fsync <temporary of token>",
      "link <temporary of token> -> <folder>/token",
      "unlink <temporary of token>",
      "open <folder> O_RDONLY",
      "fsync <folder>",
    ]);
    const second = runUnderStrace("create", target, "second\n");
    expect(second.status, second.stderr).toBe(0);
    expect(readFileSync(target, "utf8")).toBe("first\n");
    expect(leftovers()).toEqual(["token"]);
  });

  it("flush: false renames into place whole, with no flush", () => {
    const target = join(folder, "counts");
    const run = runUnderStrace("writeUnflushed", target, "{}");
    expect(run.status, run.stderr).toBe(0);
    expect(run.calls).toEqual([
      "open <temporary of counts> O_WRONLY|O_CREAT|O_EXCL 0600",
      "write <temporary of counts>",
      "rename <temporary of counts> -> <folder>/counts",
    ]);
  });
});

describe.skipIf(!hasStrace)("a writer killed at each step leaves the file whole", () => {
  const old = `old ${"o".repeat(4000)}\n`;
  const next = `new ${"n".repeat(9000)}\n`;

  // strace counts `when` per thread, and the promise API flushes on libuv's threads: the synchronous calls make
  // the folder's flush the second fsync of one thread.
  it.each([
    ["while flushing the temporary file", "write", "old", "fsync:signal=SIGKILL:when=1"],
    ["at the rename", "write", "old", "rename:signal=SIGKILL"],
    ["while flushing the folder, after the rename", "writeSync", "new", "fsync:signal=SIGKILL:when=2"],
  ] as const)("killed %s (%s): the file is the %s one, whole", (_, call, expected, inject) => {
    const target = join(folder, "f");
    writeFileSync(target, old);
    const run = runUnderStrace(call, target, next, inject);
    expect(run.signal).toBe("SIGKILL");
    expect(readFileSync(target, "utf8")).toBe(expected === "old" ? old : next);
  });

  it("killed before the first write's rename: there is no file, only a whole temporary one", () => {
    const target = join(folder, "f");
    runUnderStrace("writeSync", target, next, "rename:signal=SIGKILL");
    const names = leftovers();
    expect(names).not.toContain("f");
    expect(names).toHaveLength(1);
    expect(readFileSync(join(folder, names[0]!), "utf8")).toBe(next);
  });

  it("a failed flush fails the write: the old file stays and no temporary file is left", () => {
    const target = join(folder, "f");
    writeFileSync(target, old);
    const run = runUnderStrace("write", target, next, "fsync:error=EIO:when=1");
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("EIO");
    expect(readFileSync(target, "utf8")).toBe(old);
    expect(leftovers()).toEqual(["f"]);
  });
});

describe("modes", () => {
  it("a new file is 0600, and so is a file it replaces", async () => {
    const target = join(folder, "secret");
    writeFileSync(target, "open to all", { mode: 0o644 });
    await writeFileDurably(target, "secret");
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(await createFileDurably(join(folder, "token"), "t")).toBe(true);
    expect(statSync(join(folder, "token")).mode & 0o777).toBe(0o600);
  });

  it("the mode asked for, whatever the umask", () => {
    const before = process.umask(0o077);
    try {
      writeFileDurablySync(join(folder, "config"), "{}", { mode: 0o640 });
    } finally {
      process.umask(before);
    }
    expect(statSync(join(folder, "config")).mode & 0o777).toBe(0o640);
  });

  it("never writes through a symbolic link planted at the temporary name when told not to", () => {
    const elsewhere = join(folder, "elsewhere");
    writeFileSync(elsewhere, "theirs");
    execFileSync("ln", ["-s", elsewhere, join(folder, "f.tmp")]);
    expect(() => writeFileDurablySync(join(folder, "f"), "mine", { temporary: join(folder, "f.tmp"), noFollow: true })).toThrow(
      /EEXIST|ELOOP/,
    );
    expect(readFileSync(elsewhere, "utf8")).toBe("theirs");
  });
});

it.runIf(process.env.CI !== undefined)("strace is installed in CI, so the crash tests above ran", () => {
  expect(hasStrace, "install strace (apt-get install strace): the durable-file crash tests need it").toBe(true);
});
