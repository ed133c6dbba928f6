/**
 * `npm run authorize:intervals` end to end: the athlete's intervals.icu API key, given at a prompt or on standard
 * input, checked with intervals.icu (GET /athlete/{id}: the key opens that athlete's log), then written into the
 * token file or the Secrets Manager secret the plugin reads (`intervals_api_key`, every other field kept; a secret
 * that does not exist is created). With `--remove`, the key is taken out of the store instead. Returns the lines
 * to show the operator; none holds the key.
 */
import { silentLogger } from "../../common/logger.ts";
import { createHttpSender, type SendHttp } from "../../common/upstream/http-exchange.ts";
import { UpstreamStatusError } from "../../common/upstream/upstream-errors.ts";
import { openKeyStore } from "../../credentials/store-choice.ts";
import { IntervalsClient } from "../../intervals/intervals-client.ts";
import { intervalsKeyField } from "../../intervals/intervals-settings.ts";
import { NamedError } from "../../common/named-error.ts";
import type { IntervalsKeyOptions } from "./intervals-key-options.ts";

/** How long one write to the store may take (the operator is waiting at the terminal). */
const storeDeadlineMs = 30_000;

/** The command cannot go on; its message says why and what to do, never with the key in it. */
export class IntervalsKeyError extends NamedError {}

export interface IntervalsKeyIo {
  print(line: string): void;
  /** The key as the operator gave it (prompt or standard input). */
  readKey(): Promise<string>;
  http?: SendHttp;
}

export async function storeIntervalsKey(options: IntervalsKeyOptions, io: IntervalsKeyIo): Promise<"stored" | "removed"> {
  const store = await openKeyStore(options.target, { createIfMissing: true });
  if (options.remove) {
    await store.writeKey(intervalsKeyField, undefined, AbortSignal.timeout(storeDeadlineMs));
    io.print(
      `Removed the intervals.icu API key (${intervalsKeyField}) from the ${store.description}; its other fields are kept. The key itself ` +
        "stays valid at intervals.icu until you make a new one there (Settings > Developer Settings).",
    );
    return "removed";
  }
  const key = await io.readKey();
  if (key === "") throw new IntervalsKeyError("No key was given: type it at the prompt, or pipe it to standard input. Nothing was stored.");
  if (/\s/.test(key) || key.length > 200) {
    throw new IntervalsKeyError(
      "That is not an intervals.icu API key (one word of letters and digits, under Settings > Developer Settings on intervals.icu). Nothing was stored.",
    );
  }
  if (options.check) io.print(`intervals.icu takes the key: it opens the log of ${await athleteOpenedBy(key, options, io.http)}.`);
  await store.writeKey(intervalsKeyField, key, AbortSignal.timeout(storeDeadlineMs));
  io.print(`Stored the intervals.icu API key as ${intervalsKeyField} in the ${store.description}; its other fields are kept.`);
  io.print(
    `The plugin reads it with "upstream": "intervals.icu" and the same credential store in its config (${
      options.target.kind === "token-file"
        ? `"credentialStore": "token-file", "tokenFile": ${JSON.stringify(options.target.path)}`
        : `"credentialStore": "secrets-manager", "secretName": ${JSON.stringify(options.target.secretName)}, "cloudRegion": ${JSON.stringify(options.target.region)}`
    }).`,
  );
  return "stored";
}

/** "Maya Lindgren (i218734)": whose log intervals.icu opens with `key`, or an error saying it does not. */
async function athleteOpenedBy(key: string, options: IntervalsKeyOptions, http: SendHttp | undefined): Promise<string> {
  const client = new IntervalsClient({
    settings: { apiKey: key, athleteId: options.athleteId, apiBase: options.apiBase },
    // The client's debug lines go nowhere: the command prints its own words.
    logger: silentLogger,
    http: http ?? createHttpSender(),
  });
  let bodyText: string;
  try {
    bodyText = (await client.send({ method: "GET", path: `/athlete/${encodeURIComponent(options.athleteId)}` })).bodyText;
  } catch (error) {
    if (error instanceof UpstreamStatusError && (error.status === 401 || error.status === 403)) {
      throw new IntervalsKeyError(
        `intervals.icu did not accept this key for athlete ${options.athleteId} (it answered ${error.status}). Copy the key shown under ` +
          "Settings > Developer Settings on intervals.icu (and set INTERVALS_ATHLETE_ID to 0 or that athlete's id), then run the command again. Nothing was stored.",
      );
    }
    throw new IntervalsKeyError(
      `The key could not be checked with intervals.icu: ${(error as Error).message} Nothing was stored; run the command again, or with --no-check to store it unchecked.`,
    );
  }
  let athlete: { id?: unknown; name?: unknown } = {};
  try {
    athlete = JSON.parse(bodyText) as typeof athlete;
  } catch {
    // named below as "the athlete"
  }
  const name = typeof athlete.name === "string" && athlete.name.trim() !== "" ? athlete.name.trim() : "the athlete";
  return typeof athlete.id === "string" ? `${name} (${athlete.id})` : name;
}
