/**
 * `npm run setup:coach` as an operator runs it, against a scratch host: the project's Node and npm,
 * the scratch host's HOME, state directory and config in the environment.
 */
import { spawn } from "node:child_process";
import type { HostContext } from "./host-context.ts";

export interface SetupRun {
  code: number | null;
  /** Standard output and standard error, interleaved as printed. */
  output: string;
  ms: number;
}

export function runSetupCoach(repoRoot: string, context: HostContext, args: string[], env: NodeJS.ProcessEnv = {}): Promise<SetupRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn("npm", ["run", "--silent", "setup:coach", "--", ...args], {
      cwd: repoRoot,
      env: { ...context.env, PATH: process.env["PATH"] ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) => (output += `\n[could not start npm: ${error.message}]`));
    child.on("close", (code) => resolve({ code, output, ms: performance.now() - started }));
  });
}
