/**
 * GET /athlete (DetailedAthlete) and the `athlete` of the authorization-code token answer
 * (SummaryAthlete). Gear distances are the gear's odometer plus the activities logged with it.
 */
import { clubSummary } from "./clubs.ts";
import type { JsonValue } from "./bigint-json.ts";
import { serializeJson } from "./bigint-json.ts";
import { round } from "./route-geometry.ts";
import { seedAthlete, seedGear } from "./seed-athlete.ts";
import { toIsoUtc } from "../common/time-zone.ts";

type Json = { [key: string]: JsonValue | undefined };

export function summaryAthleteObject(updatedAtMs: number): Json {
  const a = seedAthlete;
  return {
    id: a.id,
    username: a.username,
    resource_state: 2,
    firstname: a.firstname,
    lastname: a.lastname,
    bio: a.bio,
    city: a.city,
    state: a.state,
    country: a.country,
    sex: a.sex,
    premium: a.premium,
    summit: a.summit,
    created_at: a.createdAt,
    updated_at: toIsoUtc(updatedAtMs),
    badge_type_id: a.badgeTypeId,
    weight: a.weight,
    profile_medium: "avatar/athlete/medium.png",
    profile: "avatar/athlete/large.png",
    friend: null,
    follower: null,
  };
}

export function detailedAthleteJson(updatedAtMs: number, gearDistance: (id: string) => number): string {
  const gear = (kind: "bike" | "shoe"): JsonValue[] =>
    seedGear
      .filter((g) => g.kind === kind)
      .map((g) => ({
        id: g.id,
        primary: g.primary,
        name: g.name,
        nickname: g.nickname,
        resource_state: 2,
        retired: false,
        distance: Math.round(gearDistance(g.id)),
        converted_distance: round(gearDistance(g.id) / 1000, 1),
      }));
  return serializeJson({
    ...summaryAthleteObject(updatedAtMs),
    resource_state: 3,
    blocked: false,
    can_follow: true,
    follower_count: seedAthlete.followerCount,
    friend_count: seedAthlete.friendCount,
    mutual_friend_count: 0,
    athlete_type: 1,
    date_preference: "%m/%d/%Y",
    measurement_preference: seedAthlete.measurementPreference,
    clubs: [clubSummary()],
    postable_clubs_count: 0,
    ftp: seedAthlete.ftp,
    bikes: gear("bike"),
    shoes: gear("shoe"),
    is_winback_via_upload: false,
    is_winback_via_view: false,
  });
}
