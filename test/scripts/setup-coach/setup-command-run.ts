/**
 * `npm run setup:coach` run in this process: the same code the command runs (scripts/setup-coach/setup-command.ts),
 * given the arguments and environment a child would get, with what it prints gathered as the child's standard output
 * and error would be (a line each, newline-ended) and its exit code. setup-cli.test.ts keeps a run of the command as
 * a process, for what only a process shows.
 */
import { runSetupCommand } from "../../../scripts/setup-coach/setup-command.ts";

export interface SetupRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function setupInProcess(args: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<SetupRun> {
  let stdout = "";
  let stderr = "";
  const code = await runSetupCommand(args, {
    env,
    out: (text) => (stdout += `${text}\n`),
    err: (text) => (stderr += `${text}\n`),
  });
  return { code, stdout, stderr };
}
