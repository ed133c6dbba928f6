/**
 * The sandbox: a real HTTP server (plain node:http, keep-alive) that behaves like the Strava API v3 for
 * the 11 operations the tools use, plus the OAuth token and authorize endpoints, seeded with one
 * believable athlete. It is the default upstream of `npm start` without Strava credentials, the upstream
 * of the end-to-end tests and the baseline of the latency benchmarks, so the request path stays lean:
 * answers are cached serialised JSON.
 *
 * Every request goes: count -> injected fault? -> rate limits (API only) -> route (token check, scopes,
 * parameters, state) -> write with the rate-limit headers (server/strava-request.ts). Test controls live under
 * /_sandbox/ (never under /api/v3, loopback clients only: server/sandbox-controls.ts). This file starts the server
 * on the parts one sandbox is made of (server/sandbox-parts.ts) and hands back what a test or a command holds.
 *
 * The same athlete is also served as intervals.icu's API, under /intervals/api/v1 (intervals-face/): one process,
 * one port and one store, so a write through either face shows through the other, and a client is pointed at
 * either face by its base address alone.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { seedClub } from "./clubs.ts";
import { intervalsFacePrefix } from "./intervals-face/intervals-face.ts";
import { intervalsAthleteId } from "./intervals-face/intervals-identity.ts";
import { firstAthlete, secondAthlete } from "./second-athlete.ts";
import type { Fault } from "./injected-faults.ts";
import type { SandboxCounters } from "./server/request-counters.ts";
import { sandboxRequestHandler } from "./server/request-handler.ts";
import { sandboxControls } from "./server/sandbox-controls.ts";
import type { SandboxOptions } from "./server/sandbox-options.ts";
import { sandboxClientId, sandboxParts, type SandboxParts } from "./server/sandbox-parts.ts";

export type { Fault } from "./injected-faults.ts";
export type { SandboxCounters } from "./server/request-counters.ts";
export type { SandboxOptions, TokenAnswer } from "./server/sandbox-options.ts";
export { defaultGrantedScopes, sandboxClientId } from "./server/sandbox-parts.ts";

export interface RunningSandbox {
  /** "http://127.0.0.1:PORT" */
  baseUrl: string;
  /** "http://127.0.0.1:PORT/api/v3" */
  apiBase: string;
  /** "http://127.0.0.1:PORT/intervals/api/v1": the same athlete as intervals.icu's API (the first athlete only). */
  intervalsApiBase: string;
  /** The API key the intervals.icu face accepts (HTTP Basic, user name API_KEY); from the seed. */
  intervalsApiKey: string;
  /** The athlete's id on the intervals.icu face ("0" works too). */
  intervalsAthleteId: string;
  tokenUrl: string;
  authorizeUrl: string;
  revokeUrl: string;
  clientId: string;
  clientSecret: string;
  /** The refresh token that works right now (follows rotation). */
  refreshToken(): string;
  /** Whether this refresh token (of any grant) would be accepted now: not spent by a rotation, not revoked. */
  acceptsRefreshToken(refreshToken: string): boolean;
  athleteId: number;
  /** The second athlete's id, when `secondAthlete` is on. */
  secondAthleteId: number | undefined;
  /** Who is signed in at the authorize page from now on (an athlete the sandbox has). */
  signIn(athleteId: number): void;
  /**
   * The athlete revokes the application's access on Strava's settings page: every grant of theirs ends,
   * and the application's push subscription (if any) gets the deauthorization event. Resolves once the
   * event has been delivered (or its three attempts have failed).
   */
  deauthorize(athleteId: number): Promise<void>;
  /** The club whose feed the sandbox serves. */
  clubId: number;
  /** How many activities the athlete has now (seeded, created and processed uploads). */
  activityCount(): number;
  counters(): SandboxCounters;
  resetCounters(): void;
  /** Every issued access token is now expired (the next API call gets 401). */
  expireAccessTokens(): void;
  /** Queues a fault for the next matching request(s). */
  injectFault(fault: Fault): void;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const parts = sandboxParts(options);
  const server = createServer({ keepAlive: true }, sandboxRequestHandler(parts));
  server.keepAliveTimeout = 30_000;
  await once(server.listen(options.port ?? 0, options.host ?? "127.0.0.1"), "listening");
  const address = server.address() as AddressInfo;
  const hostPart = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return runningSandbox(parts, server, `http://${hostPart}:${address.port}`);
}

/** What the caller holds: the addresses and credentials, the controls, and close. */
function runningSandbox(parts: SandboxParts, server: Server, baseUrl: string): RunningSandbox {
  const controls = sandboxControls(parts);
  return {
    baseUrl,
    apiBase: `${baseUrl}/api/v3`,
    intervalsApiBase: `${baseUrl}${intervalsFacePrefix}/api/v1`,
    intervalsApiKey: parts.intervals.apiKey,
    intervalsAthleteId,
    tokenUrl: `${baseUrl}/oauth/token`,
    authorizeUrl: `${baseUrl}/oauth/authorize`,
    revokeUrl: `${baseUrl}/oauth/revoke`,
    clientId: sandboxClientId,
    clientSecret: parts.clientSecret,
    refreshToken: () => parts.oauth.seededRefreshToken(),
    acceptsRefreshToken: (refreshToken) => parts.oauth.acceptsRefreshToken(refreshToken),
    athleteId: firstAthlete.id,
    secondAthleteId: parts.options.secondAthlete ? secondAthlete.id : undefined,
    signIn: controls.signIn,
    deauthorize: controls.deauthorize,
    clubId: seedClub.id,
    activityCount: () => parts.firstState.store.all().length,
    counters: controls.counters,
    resetCounters: controls.resetCounters,
    expireAccessTokens: controls.expireAccessTokens,
    injectFault: controls.injectFault,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
