/**
 * GET /athlete (DetailedAthlete) and the `athlete` of the authorization-code token answer
 * (SummaryAthlete). Gear distances are the gear's odometer plus the activities logged with it.
 */
import { clubSummary } from "./clubs.ts";
import type { JsonValue } from "./bigint-json.ts";
import { serializeJson } from "./bigint-json.ts";
import { round } from "./route-geometry.ts";
import { seedAthlete, seedGear } from "./seed-athlete.ts";
import type { AthleteIdentity } from "./second-athlete.ts";
import { toIsoUtc } from "../common/time-zone.ts";

type Json = { [key: string]: JsonValue | undefined };

export function summaryAthleteObject(updatedAtMs: number, a: AthleteIdentity = seedAthlete): Json {
  return {
    id: a.id,
    username: a.username,
    resource_state: 2,
    firstname: a.firstname,
    lastname: a.lastname,
    bio: a.bio,
    city: seedAthlete.city,
    state: seedAthlete.state,
    country: seedAthlete.country,
    sex: a.sex,
    premium: seedAthlete.premium,
    summit: seedAthlete.summit,
    created_at: a.createdAt,
    updated_at: toIsoUtc(updatedAtMs),
    badge_type_id: seedAthlete.badgeTypeId,
    weight: a.weight,
    profile_medium: "avatar/athlete/medium.png",
    profile: "avatar/athlete/large.png",
    friend: null,
    follower: null,
  };
}

export function detailedAthleteJson(
  updatedAtMs: number,
  gearDistance: (id: string) => number,
  athlete: AthleteIdentity = seedAthlete,
): string {
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
    ...summaryAthleteObject(updatedAtMs, athlete),
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
