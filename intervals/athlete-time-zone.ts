/**
 * The athlete's time zone as intervals.icu holds it (the `timezone` of `GET /athlete/{id}`), read once per
 * process, so that "today" and the dates the tools send are the athlete's local dates, as intervals.icu keys
 * its activities and wellness days. Concurrent first callers share one lookup; a failed lookup is forgotten so
 * the next call tries again.
 */
import { abortable } from "../common/upstream/abortable.ts";
import type { TrainingLogClient } from "../common/upstream/training-log-client.ts";
import { UpstreamBodyError } from "../common/upstream/upstream-errors.ts";
import { isValidTimeZone, wallClockAt } from "../common/time-zone.ts";

export class AthleteTimeZone {
  readonly #client: TrainingLogClient;
  readonly #athleteId: string;
  #lookup: Promise<string> | undefined;

  constructor(client: TrainingLogClient, athleteId: string) {
    this.#client = client;
    this.#athleteId = athleteId;
  }

  /** The athlete's IANA time zone, such as "America/Denver". */
  zone(signal?: AbortSignal): Promise<string> {
    this.#lookup ??= this.#fetchZone().catch((error: unknown) => {
      this.#lookup = undefined;
      throw error;
    });
    return abortable(this.#lookup, signal);
  }

  /** The athlete's local date at `nowMs`, as "YYYY-MM-DD". */
  async today(nowMs: number, signal?: AbortSignal): Promise<string> {
    const { year, month, day } = wallClockAt(nowMs, await this.zone(signal));
    return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  }

  async #fetchZone(): Promise<string> {
    const path = `/athlete/${encodeURIComponent(this.#athleteId)}`;
    const response = await this.#client.send({ method: "GET", path });
    let zone: unknown;
    try {
      zone = (JSON.parse(response.bodyText) as { timezone?: unknown }).timezone;
    } catch {
      zone = undefined;
    }
    if (typeof zone !== "string" || !isValidTimeZone(zone)) {
      throw new UpstreamBodyError(
        `intervals.icu's athlete record (GET ${path}) has no time zone this server knows (${typeof zone === "string" ? `"${zone.slice(0, 60)}"` : "none"}), so the ` +
          "athlete's local dates cannot be worked out. Set the time zone in the athlete's Settings on intervals.icu.",
      );
    }
    return zone;
  }
}
