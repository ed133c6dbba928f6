/**
 * The cache of built artifacts (build/artifact-cache.mjs), on a scratch folder of its own: a build lands in the
 * folder named by its content and the manifest names it and its sources; the staleness check sees a changed,
 * removed or rewritten source and ignores a touched one; and processes storing builds at the same moment leave a
 * manifest that parses and names a complete build, whenever a reader looks and after, with no staging folder or
 * temporary manifest left behind.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { artifactCache, readManifest, sourcesChanged, storeBuild } from "../../build/artifact-cache.mjs";

const cacheModule = new URL("../../build/artifact-cache.mjs", import.meta.url).href;
let base: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "artifact-cache-"));
  mkdirSync(join(base, "src"));
  writeFileSync(join(base, "src", "a.ts"), "export const a = 1;\n");
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

function store(contents: string) {
  return storeBuild(
    artifactCache("thing", base),
    { files: [{ path: "out/thing.js", contents }], inputs: ["src/a.ts"], fields: (build) => ({ entry: `${build}/out/thing.js` }) },
    base,
  );
}

describe("the cache of built artifacts", () => {
  it("stores a build under its content hash, once, and names it and its sources in the manifest", () => {
    const first = store("one");
    const again = store("one");
    const expected = createHash("sha256").update("out/thing.js").update("one").digest("hex").slice(0, 16);
    expect(first.build).toBe(expected);
    expect(again.build).toBe(first.build);
    const cache = artifactCache("thing", base);
    expect(readdirSync(cache.directory).sort()).toEqual([expected, "manifest.json"]);
    expect(readFileSync(join(cache.directory, expected, "out", "thing.js"), "utf8")).toBe("one");
    expect(readManifest(cache)).toEqual({
      build: expected,
      entry: `${expected}/out/thing.js`,
      sources: { "src/a.ts": { size: 20, mtimeMs: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } },
    });
    expect(store("two").build).not.toBe(expected);
  });

  it("sees a source changed, rewritten with other bytes of the same size, or removed; not one only touched", () => {
    const manifest = store("one");
    expect(sourcesChanged(manifest, base)).toBe(false);
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(base, "src", "a.ts"), later, later);
    expect(sourcesChanged(manifest, base), "same bytes, new time").toBe(false);
    writeFileSync(join(base, "src", "a.ts"), "export const a = 2;\n");
    expect(sourcesChanged(manifest, base), "same size, other bytes").toBe(true);
    writeFileSync(join(base, "src", "a.ts"), "export const a = 10;\n");
    expect(sourcesChanged(manifest, base), "other size").toBe(true);
    rmSync(join(base, "src", "a.ts"));
    expect(sourcesChanged(manifest, base), "removed").toBe(true);
  });

  it("stays whole when processes store builds at the same moment", async () => {
    const processes = 4;
    const rounds = 25;
    const script = `
      const { artifactCache, storeBuild } = await import(${JSON.stringify(cacheModule)});
      const [base, id] = process.argv.slice(1);
      for (let round = 0; round < ${rounds}; round++) {
        const contents = "build " + ((Number(id) + round) % 3) + " ".repeat(100_000);
        storeBuild(artifactCache("thing", base), { files: [{ path: "a.js", contents }, { path: "b.js", contents }], inputs: ["src/a.ts"], fields: () => ({}) }, base);
      }`;
    // Meanwhile a reader, as a starting server reads: each manifest it finds parses and names a complete build.
    const cache = artifactCache("thing", base);
    const torn: string[] = [];
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        let text: string;
        try {
          text = readFileSync(cache.manifestPath, "utf8");
        } catch {
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        reads += 1;
        try {
          const { build } = JSON.parse(text) as { build: string };
          const a = readFileSync(join(cache.directory, build, "a.js"), "utf8");
          if (a.length < 100_000) torn.push(`${build}/a.js: ${a.length} characters`);
        } catch (error) {
          torn.push(String(error));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const exits = await Promise.all(
      Array.from(
        { length: processes },
        (_, id) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, ["--input-type=module", "-e", script, base, String(id)], {
              stdio: ["ignore", "ignore", "inherit"],
            });
            child.on("exit", resolve);
          }),
      ),
    );
    writing = false;
    await reader;
    expect(exits).toEqual(Array.from({ length: processes }, () => 0));
    expect(reads, "the reader read while they wrote").toBeGreaterThan(0);
    expect(torn, "what the reader found half written").toEqual([]);
    const manifest = readManifest(cache);
    expect(manifest, "the manifest parses").toBeDefined();
    const left = readdirSync(cache.directory);
    expect(left.filter((name) => name.startsWith(".staging-") || name.endsWith(".tmp"))).toEqual([]);
    for (const build of left.filter((name) => name !== "manifest.json")) {
      const a = readFileSync(join(cache.directory, build, "a.js"), "utf8");
      const b = readFileSync(join(cache.directory, build, "b.js"), "utf8");
      expect(createHash("sha256").update("a.js").update(a).update("b.js").update(b).digest("hex").slice(0, 16), build).toBe(build);
    }
    expect(left).toContain(manifest!.build);
  }, 60_000);
});
