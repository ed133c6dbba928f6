/**
 * The authenticated athlete's id, looked up once (GET /athlete) and kept for the life of the process.
 * Concurrent first callers share one lookup; a failed lookup is forgotten so the next call tries again.
 */
import type { UpstreamClient } from "./strava-client.ts";
import { abortable } from "../common/upstream/abortable.ts";
import { UpstreamBodyError } from "../common/upstream/upstream-errors.ts";

export class AthleteIdentity {
  readonly #client: UpstreamClient;
  #lookup: Promise<number> | undefined;

  constructor(client: UpstreamClient) {
    this.#client = client;
  }

  id(signal?: AbortSignal): Promise<number> {
    this.#lookup ??= this.#fetchId().catch((error: unknown) => {
      this.#lookup = undefined;
      throw error;
    });
    return abortable(this.#lookup, signal);
  }

  async #fetchId(): Promise<number> {
    const response = await this.#client.send({ method: "GET", path: "/athlete" });
    let id: unknown;
    try {
      id = (JSON.parse(response.bodyText) as { id?: unknown }).id;
    } catch {
      id = undefined;
    }
    if (typeof id !== "number" || !Number.isSafeInteger(id)) {
      throw new UpstreamBodyError("Strava's athlete profile has no usable id, so the athlete's statistics cannot be looked up.");
    }
    return id;
  }
}
