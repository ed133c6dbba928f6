/**
 * POST /uploads and GET /uploads/{id}: files are read when they arrive, but the outcome shows only after
 * the processing time (uploadProcessingMs, by the sandbox's clock), as on Strava where processing takes
 * about 8 s. Until then the upload says "Your activity is still being processed."; then either "Your
 * activity is ready." with the new activity's id (and the activity appears in the athlete's list), or
 * "There was an error processing your activity." with the reason: for a duplicate, Strava's HTML
 * "x.fit duplicate of <a href='/activities/123' target='_blank'>Name</a>".
 */
import { sha256Hex } from "../common/digests.ts";
import type { Activity } from "./activity-model.ts";
import type { ActivityStore } from "./activity-store.ts";
import { readActivityFile } from "./activity-files.ts";
import type { UploadDataType } from "./activity-files.ts";
import { serializeJson } from "./bigint-json.ts";
import { recordedActivity } from "./seeded-activity.ts";

export const uploadStatus = {
  processing: "Your activity is still being processed.",
  ready: "Your activity is ready.",
  error: "There was an error processing your activity.",
  deleted: "The created activity has been deleted.",
} as const;

interface Upload {
  id: number;
  externalId: string;
  readyAtMs: number;
  outcome: { kind: "activity"; activity: Activity } | { kind: "error"; message: string };
  settled: boolean;
  contentHash: string | null;
}

export interface NewUpload {
  filename: string;
  dataType: UploadDataType;
  bytes: Buffer;
  name: string | null;
  description: string | null;
  trainer: boolean;
  commute: boolean;
  externalId: string | null;
}

export class UploadProcessor {
  private readonly uploads = new Map<number, Upload>();
  private readonly pending: Upload[] = [];
  private readonly store: ActivityStore;
  private readonly clock: () => number;
  private readonly processingMs: number;
  private readonly seed: number;
  private nextId: number;

  constructor(options: { store: ActivityStore; clock: () => number; processingMs: number; seed: number; firstUploadId: number }) {
    this.store = options.store;
    this.clock = options.clock;
    this.processingMs = options.processingMs;
    this.seed = options.seed;
    this.nextId = options.firstUploadId;
  }

  create(input: NewUpload): string {
    const now = this.clock();
    const id = this.nextId;
    this.nextId += 1_009;
    const externalId = input.externalId ?? input.filename;
    const read = readActivityFile(input.dataType, input.bytes);
    let outcome: Upload["outcome"];
    let contentHash: string | null = null;
    if (!read.ok) {
      outcome = { kind: "error", message: `${input.filename}: ${read.error}` };
    } else {
      contentHash = sha256Hex(read.content);
      const original = this.findOriginal(contentHash, read.summary.startMs, input.externalId);
      if (original) {
        outcome = {
          kind: "error",
          message: `${input.filename} duplicate of <a href='/activities/${original.id}' target='_blank'>${escapeHtml(original.name)}</a>`,
        };
        contentHash = null;
      } else {
        const activity = recordedActivity(
          this.seed,
          {
            id: this.store.allocateActivityId(),
            uploadId: id,
            externalId,
            sportType: read.summary.sportType,
            startMs: read.summary.startMs,
            elapsed: read.summary.elapsed,
            distance: read.summary.distance,
            start: read.summary.start,
            name: input.name ?? read.summary.name,
            description: input.description,
            trainer: input.trainer,
            commute: input.commute,
          },
          now,
        );
        outcome = { kind: "activity", activity: { ...activity, enteredVia: "strava" } };
      }
    }
    const upload: Upload = { id, externalId, readyAtMs: now + this.processingMs, outcome, settled: false, contentHash };
    this.uploads.set(id, upload);
    this.pending.push(upload);
    // Strava's first answer always says "still being processed", however quick the processing.
    return this.json(upload);
  }

  /** The upload's current JSON, or undefined for an unknown id. */
  get(id: number): string | undefined {
    this.settle();
    const upload = this.uploads.get(id);
    return upload ? this.json(upload) : undefined;
  }

  /** Finishes every upload whose processing time has passed: its activity joins the athlete's list. */
  settle(): void {
    if (this.pending.length === 0) return;
    const now = this.clock();
    for (let i = 0; i < this.pending.length;) {
      const upload = this.pending[i]!;
      if (upload.readyAtMs > now) {
        i++;
        continue;
      }
      upload.settled = true;
      if (upload.outcome.kind === "activity") this.store.add(upload.outcome.activity);
      this.pending.splice(i, 1);
    }
  }

  /** An activity this file duplicates: same content as an earlier upload, same start time, or same external id. */
  private findOriginal(contentHash: string, startMs: number, externalId: string | null): Activity | undefined {
    for (const upload of this.uploads.values()) {
      if (upload.outcome.kind === "activity" && upload.contentHash === contentHash) return upload.outcome.activity;
    }
    for (const a of this.store.all()) {
      if (a.manual) continue;
      if (Math.abs(a.startMs - startMs) < 1000 || (externalId !== null && a.externalId === externalId)) return a;
    }
    for (const upload of this.pending) {
      if (upload.outcome.kind === "activity" && Math.abs(upload.outcome.activity.startMs - startMs) < 1000) return upload.outcome.activity;
    }
    return undefined;
  }

  private json(upload: Upload): string {
    const done = upload.settled;
    const failed = done && upload.outcome.kind === "error";
    return serializeJson({
      id: upload.id,
      id_str: String(upload.id),
      external_id: upload.externalId,
      error: failed && upload.outcome.kind === "error" ? upload.outcome.message : null,
      status: !done ? uploadStatus.processing : failed ? uploadStatus.error : uploadStatus.ready,
      activity_id: done && upload.outcome.kind === "activity" ? upload.outcome.activity.id : null,
    });
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
