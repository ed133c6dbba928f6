/**
 * Who the athlete is on the sandbox's intervals.icu face, and how its ids read: her intervals.icu athlete id,
 * the API key the face accepts (derived from the sandbox's seed, so `npm run sandbox` prints the same one each
 * run), and activity ids as intervals.icu writes them: `i` and a number for what it holds itself, the Strava id
 * as digits for what reached it from Strava. The same activity keeps one record in the store; only its name
 * differs by face.
 */
import { createHash } from "node:crypto";
import type { Activity } from "../activity-model.ts";
import { intervalsSource } from "./activity-source.ts";

/** Maya's athlete id on intervals.icu. */
export const intervalsAthleteId = "i218734";

/** The store's ids start here (sandbox/seeded-activity.ts: 15e9 + seconds since 2000); intervals.icu's count from 0. */
const idBase = 15_000_000_000;

/** A 25-character key of lower-case letters and digits, like intervals.icu's, from the seed. */
export function intervalsApiKeyFor(seed: number): string {
  const digest = createHash("sha256").update(`intervals-api-key:${seed}`).digest();
  let key = "";
  for (let i = 0; key.length < 25; i++) key += "abcdefghijklmnopqrstuvwxyz0123456789"[digest[i % digest.length]! % 36];
  return key;
}

/** The activity's id on this face. */
export function intervalsActivityId(activity: Activity): string {
  return intervalsSource(activity) === "STRAVA" ? String(activity.id) : `i${activity.id - idBase}`;
}

/** The store's id for an id on this face (undefined when it cannot name one), and which form it had. */
export function storeIdOf(id: string): { storeId: number; stravaForm: boolean } | undefined {
  const icu = /^i(\d{1,12})$/.exec(id);
  if (icu) return { storeId: Number(icu[1]) + idBase, stravaForm: false };
  if (/^\d{1,16}$/.test(id)) return { storeId: Number(id), stravaForm: true };
  return undefined;
}
