/**
 * One club, "Flatirons Multisport Club", whose feed (GET /clubs/{id}/activities) mixes the seed
 * athlete's public activities with other members'. Items have Strava's club-feed shape: athlete first
 * name and last initial, no ids, no dates, newest first.
 *
 * Strava retired the live club-activities endpoint on 2026-09-01 (live calls answer 404 with
 * resource "path", code "invalid"). The sandbox keeps serving it for its one club so the tool can still
 * be exercised; any other club id gets that same 404.
 */
import type { Activity } from "./activity-model.ts";
import { activityTypeFor } from "./activity-model.ts";
import type { JsonValue } from "./bigint-json.ts";
import { serializeJson } from "./bigint-json.ts";
import { createPrng, deriveSeed } from "./prng.ts";
import { round } from "./route-geometry.ts";
import { seedAthlete } from "./seed-athlete.ts";

export const seedClub = {
  id: 231_407,
  name: "Flatirons Multisport Club",
  sportType: "triathlon" as const,
  city: "Boulder",
  state: "Colorado",
  country: "United States",
  memberCount: 146,
  url: "flatirons-multisport",
};

/** The club as it appears in the athlete's profile (SummaryClub). */
export function clubSummary(): { [key: string]: JsonValue } {
  return {
    id: seedClub.id,
    resource_state: 2,
    name: seedClub.name,
    profile_medium: "avatar/club/medium.png",
    profile: "avatar/club/large.png",
    cover_photo: null,
    cover_photo_small: null,
    activity_types: ["Ride", "Run", "Swim"],
    activity_types_icon: "sports_multi_bold",
    dimensions: ["distance", "moving_time", "elapsed_time", "elevation_gain"],
    sport_type: seedClub.sportType,
    localized_sport_type: "Triathlon",
    city: seedClub.city,
    state: seedClub.state,
    country: seedClub.country,
    private: false,
    member_count: seedClub.memberCount,
    featured: false,
    verified: false,
    url: seedClub.url,
    membership: "member",
    admin: false,
    owner: false,
  };
}

interface ClubItem {
  firstname: string;
  lastname: string;
  name: string;
  distance: number;
  moving_time: number;
  elapsed_time: number;
  total_elevation_gain: number;
  sport_type: string;
  workout_type: number | null;
  startMs: number;
}

const members: ReadonlyArray<[string, string]> = [
  ["Peter", "S."],
  ["Ana", "R."],
  ["Tom", "K."],
  ["Priya", "N."],
  ["Luis", "G."],
  ["Grace", "H."],
  ["Jonas", "B."],
  ["Keiko", "M."],
];

/** Other members' sessions: deterministic, spread over the last 90 days (the athlete's current block). */
export function memberActivities(seed: number, nowMs: number): ClubItem[] {
  const prng = createPrng(deriveSeed(seed, 0xc1ab));
  const items: ClubItem[] = [];
  const dayStart = Math.floor(nowMs / 86_400_000) * 86_400_000;
  for (let i = 0; i < 48; i++) {
    const [firstname, lastname] = prng.pick(members);
    const sport = prng.pick(["Run", "Run", "Ride", "Ride", "Swim", "TrailRun", "GravelRide", "VirtualRide"] as const);
    const speed = sport.includes("Ride") ? prng.between(6.5, 8.8) : sport === "Swim" ? prng.between(0.7, 0.95) : prng.between(2.6, 3.8);
    const moving = sport.includes("Ride") ? prng.int(3_000, 12_000) : sport === "Swim" ? prng.int(1_800, 3_600) : prng.int(1_800, 7_200);
    const distance = round(speed * moving, 1);
    items.push({
      firstname,
      lastname,
      name:
        prng.pick(["Morning", "Lunch", "Evening"]) +
        " " +
        (sport === "VirtualRide" ? "Virtual Ride" : sport === "TrailRun" ? "Trail Run" : sport === "GravelRide" ? "Gravel Ride" : sport),
      distance,
      moving_time: moving,
      elapsed_time: moving + prng.int(0, 900),
      total_elevation_gain: sport === "Swim" || sport === "VirtualRide" ? 0 : round((distance / 1000) * prng.between(4, 25), 1),
      sport_type: sport,
      workout_type: sport.includes("Ride") ? 10 : sport === "Swim" ? null : 0,
      startMs: dayStart - prng.int(0, 89) * 86_400_000 - prng.int(0, 86_399) * 1000,
    });
  }
  return items;
}

/** The club feed, newest first: the athlete's public runs, rides and swims plus the members'. */
export function clubFeed(athleteActivities: readonly Activity[], members: readonly ClubItem[], nowMs: number): string[] {
  const own: ClubItem[] = athleteActivities
    .filter((a) => !a.private && !a.hideFromHome && ["Run", "Ride", "Swim", "VirtualRide"].includes(a.type) && a.startMs <= nowMs)
    .map((a) => ({
      firstname: seedAthlete.firstname,
      lastname: `${seedAthlete.lastname.charAt(0)}.`,
      name: a.name,
      distance: a.distance,
      moving_time: a.movingTime,
      elapsed_time: a.elapsedTime,
      total_elevation_gain: a.totalElevationGain,
      sport_type: a.sportType,
      workout_type: a.workoutType,
      startMs: a.startMs,
    }));
  return [...own, ...members]
    .sort((a, b) => b.startMs - a.startMs)
    .map((item) =>
      serializeJson({
        resource_state: 2,
        athlete: { resource_state: 2, firstname: item.firstname, lastname: item.lastname },
        name: item.name,
        distance: item.distance,
        moving_time: item.moving_time,
        elapsed_time: item.elapsed_time,
        total_elevation_gain: item.total_elevation_gain,
        type: activityTypeFor(item.sport_type),
        sport_type: item.sport_type,
        workout_type: item.workout_type,
      }),
    );
}
