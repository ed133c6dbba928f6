/**
 * `npm run authorize -- --store secrets-manager|file ...`: the operator's one-time Strava
 * authorization, or with `--revoke` the end of it. See `--help` and docs/operators/credentials.md.
 */
import { AuthorizeUsageError, parseAuthorizeOptions, usage } from "./authorize/authorize-options.ts";
import { runAuthorize, runRevoke } from "./authorize/run-authorize.ts";
import { messageOf } from "../common/named-error.ts";

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
  const io = { print: (line: string) => console.log(line) };
  const chosen = options;
  const [run, failure] =
    "revoke" in chosen ? [() => runRevoke(chosen, io), "Revocation failed"] : [() => runAuthorize(chosen, io), "Authorization failed"];
  try {
    await run();
    return 0;
  } catch (error) {
    console.error(`${failure}: ${messageOf(error)}`);
    return 1;
  }
}

process.exitCode = await main();
