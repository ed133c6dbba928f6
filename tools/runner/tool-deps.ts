/**
 * The dependencies every tool call uses, whichever training log serves it: built once per process by the
 * composition root (tools/composition/) and passed in, never imported as singletons, so tests and the sandbox
 * can swap any of them. Nothing here is Strava's or intervals.icu's own: the client sends described requests
 * (common/upstream/training-log-client.ts), the athlete is an id and a local date, and the credentials only say
 * how they are and settle at shutdown (credentials/credential-upkeep.ts).
 */
import type { Logger } from "../../common/logger.ts";
import type { TrainingLog, TrainingLogClient } from "../../common/upstream/training-log-client.ts";
import type { CredentialUpkeep } from "../../credentials/credential-upkeep.ts";
import type { RequestContext } from "../definition/tool-definition.ts";

/** Whose log the tools read. */
export interface LogAthlete {
  /** The athlete's id as the log's paths take it (Strava's looked up once; intervals.icu's from its settings). */
  id(signal?: AbortSignal): Promise<number | string>;
  /**
   * The athlete's local date at `nowMs`, "YYYY-MM-DD", in the time zone the log holds for them (read once per
   * process); absent for a log whose tools never ask (Strava's take epoch seconds).
   */
  today?(nowMs: number, signal?: AbortSignal): Promise<string>;
  /**
   * The athlete's IANA time zone as the log holds it for them (intervals.icu's profile), read once per process;
   * absent for a log that keeps a zone per activity only (Strava).
   */
  timeZone?(signal?: AbortSignal): Promise<string>;
}

export interface ToolDeps {
  /** The training log the client reads: the tool table to serve is this log's (tools/table.ts). */
  readonly log: TrainingLog;
  client: TrainingLogClient;
  athlete: LogAthlete;
  /** Health and shutdown of the credentials behind the client. */
  credentials: CredentialUpkeep;
  logger: Logger;
  /** Epoch milliseconds: the clock the credentials read, for tools that need "today". */
  now: () => number;
}

/** What a tool may ask while its request is built, from `deps` (built already, or on first use). */
export function requestContextOf(deps: ToolDeps | (() => Promise<ToolDeps>), signal: AbortSignal | undefined): RequestContext {
  const built = typeof deps === "function" ? deps : async (): Promise<ToolDeps> => deps;
  return {
    athleteId: async (abort) => (await built()).athlete.id(abort),
    today: async (abort) => {
      const { athlete, now } = await built();
      if (athlete.today === undefined) throw new Error("this training log holds no local date for the athlete");
      return athlete.today(now(), abort);
    },
    timeZone: async (abort) => {
      const { athlete } = await built();
      if (athlete.timeZone === undefined) throw new Error("this training log holds no time zone for the athlete");
      return athlete.timeZone(abort);
    },
    signal,
  };
}
