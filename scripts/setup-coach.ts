// npm run setup:coach -- --workspace DIR --config FILE [--agent-id coach] [--dry-run] [--schedule [--openclaw-bin PATH]]
//
// Installs the coach agent's workspace files and memory templates (never overwriting a file),
// merges the coach's host config fragment into an OpenClaw config file (backup first, only when
// something changes; a second run changes nothing), and prints what it did.
import { parseArgs } from "node:util";
import { CoachSetupError } from "../agents/coach/setup-error.ts";
import { formatSetupReport } from "../agents/coach/setup-report.ts";
import { runCoachSetup } from "../agents/coach/setup.ts";

const USAGE = `Usage: npm run setup:coach -- --workspace DIR --config FILE [options]

  --workspace DIR      the coach agent's workspace (created if missing)
  --config FILE        the OpenClaw config file to merge into (usually ~/.openclaw/openclaw.json)
  --agent-id ID        agent id (default: coach)
  --dry-run            show what would change, write nothing
  --schedule           also create the weekly memory consolidation job on the running Gateway
  --openclaw-bin PATH  openclaw executable used by --schedule (default: openclaw)
  -h, --help           this text`;

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        workspace: { type: "string" },
        config: { type: "string" },
        "agent-id": { type: "string", default: "coach" },
        "dry-run": { type: "boolean", default: false },
        schedule: { type: "boolean", default: false },
        "openclaw-bin": { type: "string", default: "openclaw" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.workspace || !values.config) {
    console.error(`Both --workspace and --config are required.\n\n${USAGE}`);
    return 2;
  }

  try {
    const report = await runCoachSetup({
      workspace: values.workspace,
      configFile: values.config,
      agentId: values["agent-id"],
      dryRun: values["dry-run"],
      env: process.env,
      ...(values.schedule ? { schedule: { openclawBin: values["openclaw-bin"] } } : {}),
    });
    console.log(formatSetupReport(report, values["openclaw-bin"]));
    return report.consolidation.scheduled?.ok === false ? 1 : 0;
  } catch (error) {
    if (error instanceof CoachSetupError) {
      console.error(`Coach setup stopped: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
