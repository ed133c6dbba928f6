/**
 * The sandbox's state: the athlete's activities (seeded, created, uploaded, updated) and the serialised
 * answers derived from them. Serialised JSON is cached per activity version so repeated reads (the
 * benchmarks' hot path) cost a map lookup; generated series are kept for a few activities only, since a
 * 6-hour ride's series are megabytes while its serialised streams are what gets served again.
 */
import type { Activity, StreamKey } from "./activity-model.ts";
import { detailObject, summaryObject } from "./activity-json.ts";
import { serializeJson } from "./bigint-json.ts";
import { generateSeries } from "./streams.ts";
import type { Series } from "./streams.ts";
import { seedGear } from "./seed-athlete.ts";

interface Cached {
  version: number;
  summary?: string;
  detail?: string;
  detailAllEfforts?: string;
  zones?: string;
  streamData: Map<StreamKey, string>;
}

const seriesCacheSize = 4;

export class ActivityStore {
  /** Newest first, like Strava's list. */
  private ordered: Activity[];
  private readonly byId = new Map<number, Activity>();
  private readonly cache = new Map<number, Cached>();
  private readonly seriesCache = new Map<number, Series | null>();
  private gearTotals: Map<string, number> | null = null;
  private lastAllocatedId = 0;
  /** Bumped on every change to any activity (athlete, stats and club answers depend on all of them). */
  version = 1;

  /** The athlete every activity added later belongs to (uploads are built for the first athlete). */
  private readonly ownerId: number | undefined;

  constructor(activities: Activity[], ownerId?: number) {
    this.ownerId = ownerId;
    this.ordered = [...activities].sort(newestFirst);
    for (const a of activities) this.byId.set(a.id, a);
  }

  all(): readonly Activity[] {
    return this.ordered;
  }

  get(id: number): Activity | undefined {
    return this.byId.get(id);
  }

  add(activity: Activity): void {
    if (this.ownerId !== undefined) activity.athleteId = this.ownerId;
    this.byId.set(activity.id, activity);
    this.ordered.push(activity);
    this.ordered.sort(newestFirst);
    this.changed();
  }

  /** Applies changes and bumps the activity's version, so its cached answers are rebuilt. */
  update(activity: Activity, changes: Partial<Activity>): void {
    Object.assign(activity, changes);
    activity.version++;
    this.ordered.sort(newestFirst);
    this.changed();
  }

  /**
   * A fresh id above every existing or already promised one (Strava assigns ids at creation, not by
   * start time; an upload still processing has its activity id reserved).
   */
  allocateActivityId(): number {
    for (const id of this.byId.keys()) if (id > this.lastAllocatedId) this.lastAllocatedId = id;
    this.lastAllocatedId += 1_237;
    return this.lastAllocatedId;
  }

  summaryJson(a: Activity): string {
    const c = this.cached(a);
    c.summary ??= serializeJson(summaryObject(a));
    return c.summary;
  }

  /** The detail as Strava writes it; `includeAllEfforts` adds the hidden segment efforts. */
  detailJson(a: Activity, includeAllEfforts = false): string {
    const c = this.cached(a);
    const build = (): string =>
      serializeJson(detailObject(a, { series: this.series(a), gearDistance: (id) => this.gearDistance(id), includeAllEfforts }));
    if (includeAllEfforts) return (c.detailAllEfforts ??= build());
    return (c.detail ??= build());
  }

  /** Cached serialised per-activity answer other than summary/detail (zones). */
  cachedZones(a: Activity, build: () => string): string {
    const c = this.cached(a);
    c.zones ??= build();
    return c.zones;
  }

  /** The JSON array of one stream's data, e.g. "[0,1,2,...]". */
  streamDataJson(a: Activity, key: StreamKey): string | undefined {
    const c = this.cached(a);
    let json = c.streamData.get(key);
    if (json === undefined) {
      const series = this.series(a);
      if (!series) return undefined;
      const data = series[key];
      if (data.length === 0) return undefined;
      json =
        key === "latlng"
          ? "[" + (data as Array<[number, number]>).map((p) => `[${p[0]},${p[1]}]`).join(",") + "]"
          : "[" + (data as Array<number | boolean>).join(",") + "]";
      c.streamData.set(key, json);
    }
    return json;
  }

  series(a: Activity): Series | null {
    if (this.seriesCache.has(a.id)) {
      const hit = this.seriesCache.get(a.id) ?? null;
      // Refresh its place in the LRU order.
      this.seriesCache.delete(a.id);
      this.seriesCache.set(a.id, hit);
      return hit;
    }
    const series = generateSeries(a);
    this.seriesCache.set(a.id, series);
    if (this.seriesCache.size > seriesCacheSize) {
      const oldest = this.seriesCache.keys().next().value;
      if (oldest !== undefined) this.seriesCache.delete(oldest);
    }
    return series;
  }

  gearDistance(gearId: string): number {
    if (!this.gearTotals) {
      const totals = new Map<string, number>();
      for (const gear of seedGear) totals.set(gear.id, gear.priorDistance);
      for (const a of this.ordered) {
        if (a.gearId) totals.set(a.gearId, (totals.get(a.gearId) ?? 0) + a.distance);
      }
      this.gearTotals = totals;
    }
    return this.gearTotals.get(gearId) ?? 0;
  }

  private cached(a: Activity): Cached {
    let c = this.cache.get(a.id);
    if (!c || c.version !== a.version) {
      c = { version: a.version, streamData: c?.streamData ?? new Map() };
      this.cache.set(a.id, c);
    }
    return c;
  }

  private changed(): void {
    this.version++;
    this.gearTotals = null;
    // Gear totals appear in every detail: drop cached details (summaries do not include them).
    for (const c of this.cache.values()) c.detail = c.detailAllEfforts = undefined;
  }
}

function newestFirst(a: Activity, b: Activity): number {
  return b.startMs - a.startMs || b.id - a.id;
}
