/**
 * `npm run setup:coach` as one call: the options read, the sandbox the coach would get checked against this machine
 * before anything is written (and said), then the setup run and its report printed. What it prints goes to the
 * writers it is given and its exit code is returned, so the command (scripts/setup-coach.ts) and the tests in one
 * process run the same code.
 */
import { checkSandbox } from "./sandbox-choice.ts";
import { CoachSetupError } from "./setup-error.ts";
import { parseSetupOptions, SetupUsageError, usage, type SetupCommandOptions } from "./setup-options.ts";
import { formatSandboxCheck, formatSetupReport } from "./setup-report.ts";
import { planCoachSandbox, runCoachSetup } from "./setup.ts";

/** Where the command's lines go (standard output and error), and the environment it reads. */
export interface SetupCommandIo {
  env: Readonly<Record<string, string | undefined>>;
  out(text: string): void;
  err(text: string): void;
}

/** The command's exit code: 0 done, 1 stopped (the sandbox cannot run here, a problem to fix, a failed --schedule), 2 usage. */
export async function runSetupCommand(argv: readonly string[], io: SetupCommandIo): Promise<number> {
  let options: SetupCommandOptions | "help";
  try {
    options = parseSetupOptions(argv);
  } catch (error) {
    if (error instanceof SetupUsageError) {
      io.err(`${error.message}\n\n${usage}`);
      return 2;
    }
    return stopped(error, io);
  }
  if (options === "help") {
    io.out(usage);
    return 0;
  }
  try {
    if (!(await sandboxRunsHere(options, io))) return 1;
    const report = await runCoachSetup({
      workspace: options.workspace,
      configFile: options.configFile,
      agentId: options.agentId,
      ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
      ...(options.telegramUserId === undefined ? {} : { telegramUserId: options.telegramUserId }),
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
      ...(options.debriefs === undefined ? {} : { debriefs: options.debriefs }),
      dryRun: options.dryRun,
      env: io.env,
      ...(options.schedule ? { schedule: options.schedule } : {}),
    });
    io.out(formatSetupReport(report, options.openclawBin));
    return report.consolidation.scheduled?.ok === false ? 1 : 0;
  } catch (error) {
    return stopped(error, io);
  }
}

/** Before anything is written: can this machine run the sandbox the coach would get? Says so either way. */
async function sandboxRunsHere(options: SetupCommandOptions, io: SetupCommandIo): Promise<boolean> {
  const plan = await planCoachSandbox(options.configFile, options.agentId, options.sandbox);
  const check = plan.choice ? await checkSandbox(plan.choice, io.env) : undefined;
  // Skipping the check needs a sandbox someone chose: with --sandbox, or the one the config already has.
  const chosen = plan.explicit || plan.action === "keep";
  const proceed = !check || check.runsHere || (chosen && options.skipSandboxCheck);
  io.out(formatSandboxCheck(plan, check, { agentId: options.agentId, proceeding: proceed }));
  return proceed;
}

/** A problem the operator can fix stops the command with its message; anything else is a fault, thrown on. */
function stopped(error: unknown, io: SetupCommandIo): number {
  if (!(error instanceof CoachSetupError)) throw error;
  io.err(`Coach setup stopped: ${error.message}`);
  return 1;
}
