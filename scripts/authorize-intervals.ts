/**
 * `npm run authorize:intervals -- --store file|secrets-manager ...`: keeps the athlete's intervals.icu API key in
 * the token file or Secrets Manager secret the plugin reads, reading it from a prompt or standard input (never the
 * command line), or with `--remove` takes it out. See `--help` and docs/operators/intervals-icu.md.
 */
import { AuthorizeUsageError } from "./authorize/authorize-options.ts";
import { intervalsKeyUsage, parseIntervalsKeyOptions } from "./authorize/intervals-key-options.ts";
import { readSecretLine } from "./authorize/secret-input.ts";
import { storeIntervalsKey } from "./authorize/store-intervals-key.ts";
import { messageOf } from "../common/named-error.ts";

async function main(): Promise<number> {
  let options;
  try {
    options = parseIntervalsKeyOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof AuthorizeUsageError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (options === "help") {
    console.log(intervalsKeyUsage);
    return 0;
  }
  const chosen = options;
  try {
    await storeIntervalsKey(chosen, {
      print: (line) => console.log(line),
      readKey: () =>
        readSecretLine(
          "intervals.icu API key (Settings > Developer Settings on intervals.icu; typing is not shown): ",
          process.stdin,
          process.stderr,
        ),
    });
    return 0;
  } catch (error) {
    console.error(`${chosen.remove ? "Removing the key" : "Storing the key"} failed: ${messageOf(error)}`);
    return 1;
  }
}

process.exitCode = await main();
