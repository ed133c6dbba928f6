/**
 * What one sandbox is made of, put together from its options: each athlete's data and uploads (the first always, the
 * second on request), the OAuth server with who is signed in at its authorize page, push subscriptions, the rate
 * limiter, the fault queue, the counters and the intervals.icu face over the first athlete's store. The request
 * steps and the controls all work on these parts; nothing here listens.
 */
import { ActivityStore } from "../activity-store.ts";
import type { ApiState } from "../api-routes.ts";
import { summaryAthleteObject } from "../athlete-json.ts";
import { memberActivities } from "../clubs.ts";
import { FaultQueue } from "../injected-faults.ts";
import { IntervalsFace } from "../intervals-face/intervals-face.ts";
import { intervalsApiKeyFor } from "../intervals-face/intervals-identity.ts";
import { OAuthServer, seededHex } from "../oauth.ts";
import { PushSubscriptions } from "../push-subscriptions.ts";
import { RateLimiter } from "../rate-limits.ts";
import { seedActivities } from "../seed-activities.ts";
import { activityIdForStart } from "../seeded-activity.ts";
import { firstAthlete, secondAthlete, secondAthleteIdOffset, secondAthleteSeed, type AthleteIdentity } from "../second-athlete.ts";
import { UploadProcessor } from "../uploads.ts";
import { RequestCounters } from "./request-counters.ts";
import { checkedOptions, type CheckedOptions, type SandboxOptions } from "./sandbox-options.ts";

export const defaultGrantedScopes = ["read", "activity:read_all", "activity:write", "profile:read_all"];
export const sandboxClientId = "73519";

export interface SandboxParts {
  options: SandboxOptions;
  clock: () => number;
  /** Each athlete's data, by athlete id. */
  states: Map<number, ApiState>;
  /** The first athlete's: served when a token names nobody the sandbox has, and by the intervals.icu face. */
  firstState: ApiState;
  intervals: IntervalsFace;
  oauth: OAuthServer;
  clientSecret: string;
  pushSubscriptions: PushSubscriptions;
  limiter: RateLimiter;
  faults: FaultQueue;
  counters: RequestCounters;
  /** Who is signed in at the authorize page. */
  signedIn: { athleteId: number };
  /** The athlete id if the sandbox has that athlete; else an error naming the ones it has. */
  checkAthlete(athleteId: number): number;
}

export function sandboxParts(options: SandboxOptions): SandboxParts {
  const checked = checkedOptions(options);
  const { clock, seed } = checked;
  const now = clock();
  const clubMembers = memberActivities(seed, now);
  const stateOf = (athlete: AthleteIdentity, dataSeed: number, idOffset: number): ApiState =>
    athleteState(checked, now, clubMembers, athlete, dataSeed, idOffset);
  const states = new Map<number, ApiState>([[firstAthlete.id, stateOf(firstAthlete, seed, 0)]]);
  if (options.secondAthlete) states.set(secondAthlete.id, stateOf(secondAthlete, secondAthleteSeed(seed), secondAthleteIdOffset));
  const firstState = states.get(firstAthlete.id) as ApiState;
  const checkAthlete = (athleteId: number): number => {
    if (!states.has(athleteId)) {
      throw new Error(
        `The sandbox has no athlete ${athleteId}; it has ${[...states.keys()].join(" and ")} (the second one only with secondAthlete / SANDBOX_SECOND_ATHLETE).`,
      );
    }
    return athleteId;
  };
  const signedIn = { athleteId: checkAthlete(options.signInAs ?? firstAthlete.id) };
  const clientSecret = seededHex(seed, "client-secret");
  return {
    options,
    clock,
    states,
    firstState,
    intervals: new IntervalsFace({
      store: firstState.store,
      clock,
      seed,
      apiKey: intervalsApiKeyFor(seed),
      rateLimit: options.intervalsRateLimit,
    }),
    oauth: oauthServer(options, checked, { states, signedIn, clientSecret, checkAthlete, now }),
    clientSecret,
    pushSubscriptions: new PushSubscriptions({ clientId: sandboxClientId, clientSecret, clock }),
    limiter: new RateLimiter(checked.limits, clock),
    faults: new FaultQueue(),
    counters: new RequestCounters(),
    signedIn,
    checkAthlete,
  };
}

/** One athlete's seeded activities, store and upload processor (ids offset so that two athletes' never meet). */
function athleteState(
  { clock, uploadProcessingMs }: CheckedOptions,
  now: number,
  clubMembers: ApiState["clubMembers"],
  athlete: AthleteIdentity,
  dataSeed: number,
  idOffset: number,
): ApiState {
  const activities = seedActivities(dataSeed, now).map((activity) => ({
    ...activity,
    id: activity.id + idOffset,
    athleteId: athlete.id,
  }));
  const store = new ActivityStore(activities, athlete.id);
  const uploads = new UploadProcessor({
    store,
    clock,
    processingMs: uploadProcessingMs,
    seed: dataSeed,
    firstUploadId: activityIdForStart(now) + 1_062_000_000 + 10_007 + idOffset,
  });
  return { athlete, store, uploads, clock, clubMembers, memo: new Map(), clubFeed: null };
}

/** Strava's OAuth side: the seeded grant, any kept ones, and the authorize page's signed-in athlete. */
function oauthServer(
  options: SandboxOptions,
  { clock, seed, tokenLifetimeSeconds }: CheckedOptions,
  parts: Pick<SandboxParts, "states" | "signedIn" | "clientSecret" | "checkAthlete"> & { now: number },
): OAuthServer {
  return new OAuthServer({
    clientId: sandboxClientId,
    clientSecret: parts.clientSecret,
    initialRefreshToken: seededHex(seed, "refresh-token"),
    grantedScopes: options.grantedScopes ?? defaultGrantedScopes,
    tokenLifetimeSeconds,
    rotateRefreshTokens: options.rotateRefreshTokens ?? true,
    clock,
    athlete: (athleteId) => summaryAthleteObject(parts.now, parts.states.get(athleteId)?.athlete),
    seedAthleteId: firstAthlete.id,
    signedInAthlete: () => parts.signedIn.athleteId,
    keptGrants: (options.keptGrants ?? []).map((grant) => ({ ...grant, athleteId: parts.checkAthlete(grant.athleteId) })),
  });
}
