/**
 * What the debriefs remember across gateway restarts, in one small JSON file of the plugin's in the host's
 * state directory (`<state dir>/fitness/debriefs.json`): the activity ids already seen (so a restart sends
 * no second debrief), the activities the coach itself made (never debriefed), the athlete's own on/off
 * choice, the athlete's time zone as last read, and a failing check's back-off (so a restart does not tell
 * the athlete twice).
 *
 * Why a file and not the host's plugin state: OpenClaw 2026.9.6 opens its SQLite-backed keyed stores
 * (`api.runtime.state.openKeyedStore`) only to bundled and trusted official plugins; a plugin loaded from a
 * path or installed from npm by an operator gets "openKeyedStore is only available for trusted plugins".
 * `api.runtime.state.resolveStateDir()` is open to every plugin, so the record lives there.
 *
 * Each read is fresh from the file, and each change reads, applies and writes one at a time in the process
 * (the host may run two copies of the plugin, one for the service and one for a turn's tools). Writes go
 * to a temporary file that is flushed and renamed over the record (common/durable-file.ts: readers see the old or the new record,
 * whole); a record that cannot be read is set aside (`.unreadable-<ms>`) and the debriefs start over from a
 * fresh baseline (they debrief nothing already in the log), saying so in the log.
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { moveFileDurably, writeFileDurably } from "../../common/durable-file.ts";
import { queued } from "./process-wide.ts";

/** Seen ids and the coach's own ids are forgotten this long after their activity started (or was made). */
export const forgetAfterMs = 7 * 24 * 60 * 60 * 1000;

export interface DebriefFailure {
  /** Consecutive failed checks. */
  count: number;
  /** When the first of them failed (epoch ms). */
  sinceMs: number;
  /** No check before this (epoch ms): the back-off. */
  nextCheckAtMs: number;
  /** The athlete has been told (once per run of failures). */
  told: boolean;
}

export interface AthleteChoice {
  enabled: boolean;
  /** The `debriefs` setting in force when the athlete chose: a different one written since wins over the choice. */
  setting: string;
  atMs: number;
}

export interface DebriefRecordData {
  version: 1;
  /** The first check after debriefs were turned on has taken its baseline (everything then listed counts as seen). */
  baselined: boolean;
  /** Activity id -> its start (epoch ms): listed before, never debriefed again. */
  seen: Record<string, number>;
  /** Ids of what the coach made itself (id -> when it was recorded, epoch ms). */
  coachMade: { activities: Record<string, number>; uploads: Record<string, number> };
  athleteChoice?: AthleteChoice;
  /** The athlete's IANA zone, from the newest listed activity that had one. */
  timeZone?: string;
  failure?: DebriefFailure;
}

export function emptyRecord(): DebriefRecordData {
  return { version: 1, baselined: false, seen: {}, coachMade: { activities: {}, uploads: {} } };
}

export interface RecordLog {
  warn(event: string, fields: Record<string, unknown>): void;
}

/**
 * The record on disk. Every read is a fresh one and every change reads, applies and writes under the
 * process-wide queue of its path (plugin/debriefs/process-wide.ts): the copy of the plugin that runs the
 * checks and the one that serves the athlete's switch and the coach's writes share it through the file.
 */
export class DebriefRecordFile {
  readonly path: string;
  readonly #log: RecordLog;

  constructor(path: string, log: RecordLog) {
    this.path = path;
    this.#log = log;
  }

  /** The record as the file holds it now (an empty one when there is none yet). */
  async read(): Promise<DebriefRecordData> {
    return await queued(this.path, () => this.#load());
  }

  /** Applies `change` to the record as it is on disk and writes it; resolves with the new record once it is there. */
  async update(change: (data: DebriefRecordData) => void): Promise<DebriefRecordData> {
    return await queued(this.path, async () => {
      const data = await this.#load();
      change(data);
      await this.#write(`${JSON.stringify(data)}\n`);
      return data;
    });
  }

  /** Waits for changes queued so far (the service's stop). */
  async settle(): Promise<void> {
    await queued(this.path, async () => undefined);
  }

  async #load(): Promise<DebriefRecordData> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyRecord();
      throw error;
    }
    const parsed = parseRecord(text);
    if (parsed) return parsed;
    const aside = `${this.path}.unreadable-${Date.now()}`;
    await moveFileDurably(this.path, aside).catch(() => undefined);
    this.#log.warn("debrief_record_unreadable", {
      path: this.path,
      moved_to: aside,
      consequence: "debriefs start over: the next check takes a new baseline and debriefs nothing already in the log",
    });
    return emptyRecord();
  }

  async #write(text: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileDurably(this.path, text);
  }
}

function parseRecord(text: string): DebriefRecordData | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Partial<DebriefRecordData>;
  if (record.version !== 1 || typeof record.baselined !== "boolean" || !isNumberMap(record.seen)) return undefined;
  const coachMade = record.coachMade;
  if (!coachMade || !isNumberMap(coachMade.activities) || !isNumberMap(coachMade.uploads)) return undefined;
  return record as DebriefRecordData;
}

function isNumberMap(value: unknown): value is Record<string, number> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "number");
}

/** Drops seen ids and the coach's ids older than `forgetAfterMs` (the list only ever reaches 48 hours back). */
export function forgetOld(data: DebriefRecordData, nowMs: number): void {
  const keepAfter = nowMs - forgetAfterMs;
  for (const map of [data.seen, data.coachMade.activities, data.coachMade.uploads]) {
    for (const [id, atMs] of Object.entries(map)) if (atMs < keepAfter) delete map[id];
  }
}
