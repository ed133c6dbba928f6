/**
 * Command-line options of `npm run authorize:intervals`, read from the arguments and the environment. The key
 * itself is never an option: anything on a command line is visible to the machine's other users (and kept in
 * shell history), so it is read from a prompt or standard input. Every mistake is an `AuthorizeUsageError`
 * that says what to pass instead.
 */
import { parseArgs } from "node:util";
import { messageOf } from "../../common/named-error.ts";
import { defaultTokenFileText } from "../../common/settings/credential-variables.ts";
import { defaultIntervalsApiBase, readIntervalsSettings } from "../../common/settings/intervals-variables.ts";
import type { Environment } from "../../common/settings/setting.ts";
import type { AuthorizationTarget } from "../../credentials/store-choice.ts";
import { checkedIntervalsApiBase } from "../../intervals/intervals-settings.ts";
import { AuthorizeUsageError, credentialTarget } from "./authorize-options.ts";

export interface IntervalsKeyOptions {
  target: AuthorizationTarget;
  /** Remove the key from the store instead of writing one. */
  remove: boolean;
  /** Ask intervals.icu whether it takes the key before storing it (default). */
  check: boolean;
  /** Whose log the key must open (INTERVALS_ATHLETE_ID) and where intervals.icu is (INTERVALS_API_BASE). */
  athleteId: string;
  apiBase: string;
}

export const intervalsKeyUsage = `Usage: npm run authorize:intervals -- --store file [--token-file PATH]
       npm run authorize:intervals -- --store secrets-manager [--secret-name NAME] [--region REGION]
       npm run authorize:intervals -- --remove --store file|secrets-manager [...]

Keeps the athlete's intervals.icu API key (Settings > Developer Settings on intervals.icu) in the token file or
the Secrets Manager secret the OpenClaw plugin reads (its config: "upstream": "intervals.icu"), as the field
intervals_api_key beside what else the store holds. The key is read from a prompt (typing is not shown) or
from standard input (printf '%s' "$KEY" | npm run authorize:intervals -- --store file); it is never taken from
the command line, and never printed. Before it is stored, intervals.icu is asked whether it takes it.

Options:
  --store secrets-manager|file  where to keep the key (required)
  --remove                      remove the key from the store (it stays valid at intervals.icu until you
                                make a new one there)
  --secret-name NAME            secret name or ARN (default fitness-credentials)
  --region REGION               AWS region of the secret (default AWS_REGION, else us-west-2)
  --token-file PATH             token file (default FITNESS_TOKEN_FILE, else ${defaultTokenFileText})
  --no-check                    store the key without asking intervals.icu first (no network here)

Environment: INTERVALS_ATHLETE_ID (default 0, the key's own athlete) and INTERVALS_API_BASE (default
${defaultIntervalsApiBase}) say whose log to check the key against, and where.`;

/** Options that would put the key on the command line, refused by name. */
const keyOptions = ["--key", "--api-key", "--intervals-api-key", "--apikey"];

export function parseIntervalsKeyOptions(argv: readonly string[], env: Environment): IntervalsKeyOptions | "help" {
  const keyOption = argv.find((arg) => keyOptions.includes(arg.split("=")[0]!.toLowerCase()));
  if (keyOption !== undefined) {
    throw new AuthorizeUsageError(
      `${keyOption.split("=")[0]} is not an option: the key is never taken from the command line, where other users of this machine ` +
        "and your shell history would keep it. Run the command without it and type the key at the prompt, or pipe it to standard input.",
    );
  }
  const values = readArguments(argv);
  if (values["help"] === true) return "help";
  const text = (name: string): string | undefined => {
    const value = values[name];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };
  const target = credentialTarget(
    text,
    env,
    `use --store file (the token file the plugin reads on this computer) or --store secrets-manager (an AWS Secrets Manager secret).\n\n${intervalsKeyUsage}`,
  );
  let intervals: { athleteId: string; apiBase: string };
  try {
    const read = readIntervalsSettings(env);
    intervals = { athleteId: read.athleteId, apiBase: checkedIntervalsApiBase(read.apiBase) };
  } catch (error) {
    throw new AuthorizeUsageError(messageOf(error));
  }
  return { target, remove: values["remove"] === true, check: values["no-check"] !== true, ...intervals };
}

/** The arguments as the command knows them; an unknown or malformed one is a usage error with the usage text. */
function readArguments(argv: readonly string[]): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        store: { type: "string" },
        "secret-name": { type: "string" },
        region: { type: "string" },
        "token-file": { type: "string" },
        remove: { type: "boolean" },
        "no-check": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    throw new AuthorizeUsageError(`${messageOf(error)}\n\n${intervalsKeyUsage}`);
  }
}
