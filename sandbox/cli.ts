/**
 * `npm run sandbox`: starts the Strava-shaped sandbox and prints how to point a client at it.
 * Knobs come from the environment (see sandboxEnvHelp); Ctrl-C or SIGTERM stops it cleanly.
 */
import { tmpdir } from "node:os";
import { sandboxEnvHelp, sandboxOptionsFromEnv } from "./options-from-env.ts";
import { sandboxBanner } from "./sandbox-banner.ts";
import { startSandbox, type RunningSandbox } from "./server.ts";

async function main(): Promise<void> {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    console.log(
      [
        "npm run sandbox: a local, stateful Strava API v3 for the fitness tools, and the same athlete as intervals.icu's API.",
        "",
        "Environment:",
        ...sandboxEnvHelp().map((l) => `  ${l}`),
      ].join("\n"),
    );
    return;
  }
  let options;
  try {
    options = sandboxOptionsFromEnv(process.env);
  } catch (error) {
    console.error(`sandbox: ${(error as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const sandbox = await startSandbox(options);
  // Before the banner says it is ready: whoever reads it may stop it at once.
  stopOnSignals(sandbox);
  console.log(sandboxBanner(sandbox, tmpdir()).join("\n"));
}

/** Ctrl-C or SIGTERM closes the sandbox, then exits 0 (1 if closing failed). */
function stopOnSignals(sandbox: RunningSandbox): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\nsandbox: ${signal}, shutting down`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`sandbox: shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

await main();
