/**
 * The token-durability scenarios (test/durability/) run against this tree's product code and against an
 * earlier revision's, one after the other, with the same tests, sandbox and moto_server, and their figures
 * side by side: failed calls, token requests per expiry, tokens lost to SIGKILL, what a stuck store and a
 * stop mid-refresh do.
 *
 *   npx tsx bench/token-durability.ts [--before REV] [--kills N] [--only-after]
 *
 * `--before` (default a62a48a, the last commit before the compare-and-swap stores) names the revision
 * whose tools/, mcp-adapter/, plugin/ and index.ts are put in a copy of this tree under
 * .cache/durability-before/; everything else (tests, sandbox, test support) is this tree's. `--kills`
 * (default 30) is the number of SIGKILLs per store.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs, stripVTControlCharacters } from "node:util";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    before: { type: "string", default: "a62a48a" },
    kills: { type: "string", default: "30" },
    "only-after": { type: "boolean", default: false },
  },
});

interface Run {
  label: string;
  figures: Map<string, string>;
  tests: Array<{ name: string; passed: boolean; ms: number }>;
  seconds: number;
}

function beforeTree(revision: string): string {
  const tree = join(root, ".cache", "durability-before", revision);
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  execFileSync("bash", ["-c", `git archive HEAD | tar -x -C "${tree}"`], { cwd: root });
  for (const path of ["tools", "mcp-adapter", "plugin", "index.ts"]) rmSync(join(tree, path), { recursive: true, force: true });
  execFileSync("bash", ["-c", `git archive "${revision}" tools mcp-adapter plugin index.ts | tar -x -C "${tree}"`], { cwd: root });
  symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
  return tree;
}

async function runSuite(label: string, cwd: string): Promise<Run> {
  const report = join(cwd, ".cache", "durability-report.json");
  mkdirSync(dirname(report), { recursive: true });
  const started = performance.now();
  const output = await new Promise<string>((resolve) => {
    const child = spawn(
      join(root, "node_modules", ".bin", "vitest"),
      ["run", "--config", "vitest.durability.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
      { cwd, env: { ...process.env, DURABILITY_KILLS: values.kills }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.on("exit", () => resolve(text));
  });
  const figures = new Map<string, string>();
  for (const line of output.split("\n")) {
    const match = /^(shared secret|shared token file|token file|Secrets Manager|stuck store): (.*)$/.exec(
      stripVTControlCharacters(line).trim(),
    );
    if (match) figures.set(match[1]!, match[2]!);
  }
  const tests: Run["tests"] = [];
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, "utf8")) as {
      testResults: Array<{ assertionResults: Array<{ title: string; status: string; duration?: number }> }>;
    };
    for (const file of json.testResults) {
      for (const test of file.assertionResults) tests.push({ name: test.title, passed: test.status === "passed", ms: test.duration ?? 0 });
    }
  }
  return { label, figures, tests, seconds: (performance.now() - started) / 1000 };
}

function shared(run: Run, key: string): string {
  const text = run.figures.get(key);
  if (!text) return "no figures (the scenario did not finish)";
  const f = JSON.parse(text) as {
    calls: number;
    failed: number;
    burstCalls: number;
    burstFailed: number;
    refreshes: number;
    tokenRequests: number;
    refusedTokenRequests: number;
  };
  const perExpiry = f.refreshes > 0 ? (f.tokenRequests / f.refreshes).toFixed(2) : "n/a";
  return `${f.failed}/${f.calls} calls failed (${f.burstFailed}/${f.burstCalls} in the bursts after forced expiries); ${f.refreshes} expiries, ${f.tokenRequests} token requests (${f.refusedTokenRequests} refused), ${perExpiry} per expiry`;
}

const runs: Run[] = [
  await runSuite(`this tree (${execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root }).toString().trim()})`, root),
];
if (!values["only-after"]) runs.push(await runSuite(`product code of ${values.before}`, beforeTree(values.before)));

console.log(
  `\nMachine: ${cpus().length} vCPUs, ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}; SIGKILLs per store: ${values.kills}\n`,
);
const rows: Array<[string, (run: Run) => string]> = [
  ["3 servers, one secret", (run) => shared(run, "shared secret")],
  ["2 servers, one token file", (run) => shared(run, "shared token file")],
  ["SIGKILL, token file", (run) => run.figures.get("token file") ?? "no figures"],
  ["SIGKILL, Secrets Manager", (run) => run.figures.get("Secrets Manager") ?? "no figures"],
  ["Secrets Manager stops answering", (run) => run.figures.get("stuck store") ?? "no figures"],
];
console.log(`| Scenario | ${runs.map((run) => run.label).join(" | ")} |`);
console.log(`|---|${runs.map(() => "---").join("|")}|`);
for (const [name, figure] of rows) console.log(`| ${name} | ${runs.map(figure).join(" | ")} |`);
for (const test of runs[0]!.tests) {
  const cells = runs.map((run) => {
    const found = run.tests.find((other) => other.name === test.name);
    return found ? `${found.passed ? "pass" : "FAIL"} (${(found.ms / 1000).toFixed(1)} s)` : "not run";
  });
  console.log(`| ${test.name} | ${cells.join(" | ")} |`);
}
console.log(`\nSuite time: ${runs.map((run) => `${run.label} ${run.seconds.toFixed(0)} s`).join(", ")}`);
