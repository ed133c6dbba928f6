/**
 * `npm run authorize -- --store secrets-manager|file ...`: the operator's one-time Strava
 * authorization. See `--help` and the README's "OpenClaw plugin" section.
 */
import { AuthorizeUsageError, parseAuthorizeOptions, usage } from "./authorize/authorize-options.ts";
import { runAuthorize } from "./authorize/run-authorize.ts";

async function main(): Promise<number> {
  let options;
  try {
    options = parseAuthorizeOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof AuthorizeUsageError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (options === "help") {
    console.log(usage);
    return 0;
  }
  try {
    await runAuthorize(options, { print: (line) => console.log(line) });
    return 0;
  } catch (error) {
    console.error(`Authorization failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await main();
