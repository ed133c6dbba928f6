/**
 * The sandbox: a real HTTP server (plain node:http, keep-alive) that behaves like the Strava API v3 for
 * the 11 operations the tools use, plus the OAuth token and authorize endpoints, seeded with one
 * believable athlete. It is the default upstream of `npm start` without Strava credentials, the upstream
 * of the end-to-end tests and the baseline of the latency benchmarks, so the request path stays lean:
 * answers are cached serialised JSON.
 *
 * Every request goes: count -> injected fault? -> rate limits (API only) -> route (token check, scopes,
 * parameters, state) -> write with the rate-limit headers. Test controls live under /_sandbox/ (never
 * under /api/v3, loopback clients only).
 *
 * The same athlete is also served as intervals.icu's API, under /intervals/api/v1 (intervals-face/): one process,
 * one port and one store, so a write through either face shows through the other, and a client is pointed at
 * either face by its base address alone.
 */
import { sandboxHeader } from "./sandbox-header.ts";
import { once } from "node:events";
import { createServer, STATUS_CODES } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readRequestBody, RequestBodyTooLargeError } from "../common/read-request-body.ts";
import { ActivityStore } from "./activity-store.ts";
import { handleApi, routeKey } from "./api-routes.ts";
import type { ApiState } from "./api-routes.ts";
import { summaryAthleteObject } from "./athlete-json.ts";
import { memberActivities, seedClub } from "./clubs.ts";
import { applicationInactive, faultReply, pathNotFound, rateLimitExceeded, serverError } from "./fault-bodies.ts";
import { FaultQueue, nonJsonBody, resetConnection, validateFault, writeTruncated } from "./injected-faults.ts";
import type { Fault } from "./injected-faults.ts";
import { serializeJson } from "./bigint-json.ts";
import { OAuthServer, seededHex } from "./oauth.ts";
import { RateLimiter, stravaDefaultLimits } from "./rate-limits.ts";
import type { LimitPair } from "./rate-limits.ts";
import type { Reply } from "./reply.ts";
import { jsonContentType } from "./reply.ts";
import { bodyKind, decodeForm } from "./body-decoding.ts";
import { seedActivities } from "./seed-activities.ts";
import { activityIdForStart } from "./seeded-activity.ts";
import { PushSubscriptions } from "./push-subscriptions.ts";
import { firstAthlete, secondAthlete, secondAthleteIdOffset, secondAthleteSeed, type AthleteIdentity } from "./second-athlete.ts";
import { UploadProcessor } from "./uploads.ts";
import { IntervalsFace, intervalsFacePrefix } from "./intervals-face/intervals-face.ts";
import { intervalsApiKeyFor, intervalsAthleteId } from "./intervals-face/intervals-identity.ts";
import type { AddressRateLimitSettings } from "./intervals-face/address-rate-limit.ts";
import { errorReply } from "./intervals-face/intervals-replies.ts";

export type { Fault } from "./injected-faults.ts";

/** Strava's upload limit is 25 MB; a little room for the multipart framing. */
const maxBodyBytes = 26 * 1024 * 1024;

export interface SandboxOptions {
  host?: string;
  /** Default 0 (random); `npm run sandbox` uses 8900 unless PORT is set. */
  port?: number;
  /** Epoch ms; default Date.now (tests move time to expire tokens). */
  clock?: () => number;
  /** Default 21600 (6 h, like Strava). */
  tokenLifetimeSeconds?: number;
  /** Default true: every refresh returns a new refresh token and the old one stops working. */
  rotateRefreshTokens?: boolean;
  /** Default 8000 (Strava's average); tests use ~50. */
  uploadProcessingMs?: number;
  /** [15-min, daily]; default Strava's [200, 2000] overall and [100, 1000] read. */
  rateLimits?: { overall?: [number, number]; read?: [number, number] };
  /** Scopes of the seeded refresh token (and the most the authorize page grants). */
  grantedScopes?: string[];
  /** Seed of the generated data (default 7): same seed and clock, byte-identical answers. */
  seed?: number;
  /**
   * A second athlete (Jonas Berg) with data of his own, who can sign in at the authorize page when
   * `signInAs` (or POST /_sandbox/sign-in) names him: for refusal and isolation tests. Default false.
   */
  secondAthlete?: boolean;
  /** The athlete signed in at the authorize page at first (default the first athlete). */
  signInAs?: number;
  /**
   * Refresh tokens this sandbox accepts from the start, each a grant of its own for its athlete (with the scopes
   * it grants), as if those athletes had signed in at a Strava that went on running: for tests that start a
   * server on state an earlier run left, whose sandbox is gone with its process. Default none.
   */
  keptGrants?: readonly { athleteId: number; refreshToken: string }[];
  /** The intervals.icu face's per-address limit (default intervals.icu's: 10 a second, bursts of 20). */
  intervalsRateLimit?: AddressRateLimitSettings;
  /**
   * Called once a successful token answer has been handed to the kernel, with the client's port (tests
   * time a kill from the moment a rotated token reached the client).
   */
  onTokenAnswer?: (answer: TokenAnswer) => void;
}

export interface TokenAnswer {
  /** The client's TCP port on its side of the connection. */
  clientPort: number;
  /** The refresh token the answer carries. */
  refreshToken: string;
  /** performance.now() when the answer was written. */
  sentAt: number;
}

export type SandboxCounters = {
  requests: number;
  tokenRequests: number;
  /** Refresh requests answered 400 because the refresh token was spent (or never valid). */
  refreshTokenRejections: number;
  apiRequests: number;
  /** Requests per route, e.g. "GET /activities/{id}", "POST /oauth/token". */
  byRoute: Record<string, number>;
};

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

export const defaultGrantedScopes = ["read", "activity:read_all", "activity:write", "profile:read_all"];
export const sandboxClientId = "73519";

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const clock = options.clock ?? Date.now;
  const seed = options.seed ?? 7;
  const limits = {
    overall: checkLimits("rateLimits.overall", options.rateLimits?.overall ?? stravaDefaultLimits.overall),
    read: checkLimits("rateLimits.read", options.rateLimits?.read ?? stravaDefaultLimits.read),
  };
  const tokenLifetimeSeconds = checkPositive("tokenLifetimeSeconds", options.tokenLifetimeSeconds ?? 21_600);
  const uploadProcessingMs = checkNonNegative("uploadProcessingMs", options.uploadProcessingMs ?? 8_000);

  const now = clock();
  const clubMembers = memberActivities(seed, now);
  const athleteState = (athlete: AthleteIdentity, dataSeed: number, idOffset: number): ApiState => {
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
  };
  const states = new Map<number, ApiState>([[firstAthlete.id, athleteState(firstAthlete, seed, 0)]]);
  if (options.secondAthlete) states.set(secondAthlete.id, athleteState(secondAthlete, secondAthleteSeed(seed), secondAthleteIdOffset));
  const state = states.get(firstAthlete.id) as ApiState;
  const store = state.store;
  const intervals = new IntervalsFace({ store, clock, seed, apiKey: intervalsApiKeyFor(seed), rateLimit: options.intervalsRateLimit });
  const checkAthlete = (athleteId: number): number => {
    if (!states.has(athleteId)) {
      throw new Error(
        `The sandbox has no athlete ${athleteId}; it has ${[...states.keys()].join(" and ")} (the second one only with secondAthlete / SANDBOX_SECOND_ATHLETE).`,
      );
    }
    return athleteId;
  };
  let signedIn = checkAthlete(options.signInAs ?? firstAthlete.id);
  const clientSecret = seededHex(seed, "client-secret");
  const oauth = new OAuthServer({
    clientId: sandboxClientId,
    clientSecret,
    initialRefreshToken: seededHex(seed, "refresh-token"),
    grantedScopes: options.grantedScopes ?? defaultGrantedScopes,
    tokenLifetimeSeconds,
    rotateRefreshTokens: options.rotateRefreshTokens ?? true,
    clock,
    athlete: (athleteId) => summaryAthleteObject(now, states.get(athleteId)?.athlete),
    seedAthleteId: firstAthlete.id,
    signedInAthlete: () => signedIn,
    keptGrants: (options.keptGrants ?? []).map((grant) => ({ ...grant, athleteId: checkAthlete(grant.athleteId) })),
  });
  const pushSubscriptions = new PushSubscriptions({ clientId: sandboxClientId, clientSecret, clock });
  const limiter = new RateLimiter(limits, clock);
  const faults = new FaultQueue();
  let counters: SandboxCounters = { requests: 0, tokenRequests: 0, refreshTokenRejections: 0, apiRequests: 0, byRoute: {} };

  const controls = {
    injectFault: (fault: Fault) => faults.add(fault),
    expireAccessTokens: () => oauth.expireAccessTokens(),
    counters: (): SandboxCounters => ({ ...counters, byRoute: { ...counters.byRoute } }),
    resetCounters: () => {
      counters = { requests: 0, tokenRequests: 0, refreshTokenRejections: 0, apiRequests: 0, byRoute: {} };
    },
    signIn: (athleteId: number) => {
      signedIn = checkAthlete(athleteId);
    },
    deauthorize: async (athleteId: number) => {
      if (!oauth.deauthorize(checkAthlete(athleteId))) return;
      await pushSubscriptions.push({
        aspect_type: "update",
        object_type: "athlete",
        object_id: athleteId,
        owner_id: athleteId,
        updates: { authorized: "false" },
      });
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const search = q < 0 ? "" : url.slice(q);
    const method = req.method ?? "GET";

    if (path.startsWith("/_sandbox/")) {
      return writeReply(res, await control(req, method, path), limiter.headers());
    }
    if (path === intervalsFacePrefix || path.startsWith(intervalsFacePrefix + "/")) return intervalsRequest(req, res, method, path, search);

    const isApi = path.startsWith("/api/v3/");
    const apiPath = isApi ? path.slice(7) : "";
    if (apiPath === "/push_subscriptions" || apiPath.startsWith("/push_subscriptions/")) {
      counters.requests++;
      const route = `${method} /push_subscriptions`;
      counters.byRoute[route] = (counters.byRoute[route] ?? 0) + 1;
      const parsed = await parameters(req, search);
      const reply = parsed.ok
        ? await pushSubscriptions.handle(method, apiPath.slice("/push_subscriptions".length), parsed.params)
        : parsed.reply;
      return writeReply(res, reply, limiter.headers());
    }
    const isToken = path === "/oauth/token" || path === "/api/v3/oauth/token";
    const isAuthorize = path === "/oauth/authorize" || path === "/api/v3/oauth/authorize";
    const isRevoke = path === "/oauth/revoke" || path === "/api/v3/oauth/revoke";
    const route = isToken
      ? `${method} /oauth/token`
      : isAuthorize
        ? `${method} /oauth/authorize`
        : isRevoke
          ? `${method} /oauth/revoke`
          : isApi
            ? routeKey(method, apiPath)
            : `${method} ${path}`;
    counters.requests++;
    if (isToken) counters.tokenRequests++;
    else if (isApi) counters.apiRequests++;
    counters.byRoute[route] = (counters.byRoute[route] ?? 0) + 1;

    const fault =
      faults.size > 0
        ? faults.take(isApi && !isToken ? [`${method} ${path}${search}`, `${method} ${apiPath}${search}`] : [`${method} ${path}${search}`])
        : undefined;
    if (fault?.kind === "reset") return resetConnection(res);
    if (fault?.kind === "delay") await sleep(fault.delayMs ?? 0);

    let headers: Record<string, string>;
    let reply: Reply;
    if (isApi && !isToken && !isAuthorize && !isRevoke) {
      const verdict = limiter.record(method === "GET" || method === "HEAD");
      headers = verdict.headers;
      if (fault?.kind === "status") reply = serverError(fault.status ?? 500, STATUS_CODES[fault.status ?? 500] ?? "Error");
      else if (fault?.kind === "non-json") reply = intermediaryPage(fault);
      else if (fault?.kind === "application-inactive") reply = applicationInactive();
      else if (verdict.exceeded) reply = rateLimitExceeded();
      else reply = await api(req, method, apiPath, search);
    } else {
      headers = limiter.headers();
      if (fault?.kind === "status") reply = serverError(fault.status ?? 500, STATUS_CODES[fault.status ?? 500] ?? "Error");
      else if (fault?.kind === "non-json") reply = intermediaryPage(fault);
      else if (fault?.kind === "application-inactive") reply = applicationInactive();
      else if (isToken && method === "POST") reply = await replyWithParameters(req, search, (params) => oauth.token(params));
      else if (isRevoke && method === "POST")
        reply = await replyWithParameters(req, search, (params) => oauth.revoke(req.headers.authorization, params));
      else if (isAuthorize && method === "GET") reply = oauth.authorize(new URLSearchParams(search));
      else reply = pathNotFound();
    }
    if (isToken && reply.status === 400 && reply.body.includes('"RefreshToken"')) counters.refreshTokenRejections++;

    if (fault?.kind === "truncate") {
      return writeTruncated(res, reply.status, { ...headers, "Content-Type": reply.contentType ?? jsonContentType }, reply.body);
    }
    if (isToken && reply.status === 200 && options.onTokenAnswer) {
      const onTokenAnswer = options.onTokenAnswer;
      const clientPort = req.socket.remotePort ?? 0;
      const refreshToken = (JSON.parse(reply.body) as { refresh_token: string }).refresh_token;
      writeReply(res, reply, headers, () => onTokenAnswer({ clientPort, refreshToken, sentAt: performance.now() }));
      return;
    }
    writeReply(res, reply, headers);
  };

  /** The intervals.icu face: counted and open to injected faults like the Strava API, without Strava's rate-limit headers. */
  const intervalsRequest = async (
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    path: string,
    search: string,
  ): Promise<void> => {
    counters.requests++;
    const route = IntervalsFace.routeKey(method, path);
    counters.byRoute[route] = (counters.byRoute[route] ?? 0) + 1;
    const below = path.slice(intervalsFacePrefix.length);
    const fault = faults.size > 0 ? faults.take([`${method} ${path}${search}`, `${method} ${below}${search}`]) : undefined;
    if (fault?.kind === "reset") return resetConnection(res);
    if (fault?.kind === "delay") await sleep(fault.delayMs ?? 0);
    let reply: Reply;
    if (fault?.kind === "status" || fault?.kind === "application-inactive") {
      const status = fault.kind === "status" ? (fault.status ?? 500) : 403;
      reply = errorReply(status, STATUS_CODES[status] ?? "Error");
    } else if (fault?.kind === "non-json") {
      reply = intermediaryPage(fault);
    } else {
      reply = await intervals.handle({
        method,
        path,
        query: new URLSearchParams(search),
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        address: req.socket.remoteAddress ?? "",
        body: () => readRequestBody(req, maxBodyBytes),
      });
    }
    // A request whose body was never read (refused before it) must not leave it in the connection.
    if (!req.complete) req.resume();
    if (fault?.kind === "truncate")
      return writeTruncated(res, reply.status, { "Content-Type": reply.contentType ?? jsonContentType }, reply.body);
    writeReply(res, reply, {});
  };

  const api = async (req: IncomingMessage, method: string, apiPath: string, search: string): Promise<Reply> => {
    const query = new URLSearchParams(search);
    const auth = oauth.authenticate(req.headers.authorization, query.get("access_token"));
    if (!auth.ok) {
      req.resume();
      return auth.reply;
    }
    const body = method === "POST" || method === "PUT" ? await readRequestBody(req, maxBodyBytes) : Buffer.alloc(0);
    const athleteState = states.get(auth.athleteId) ?? state;
    return handleApi({ method, path: apiPath, query, contentType: req.headers["content-type"], body, scopes: auth.scopes }, athleteState);
  };

  const replyWithParameters = async (
    req: IncomingMessage,
    search: string,
    endpoint: (params: Record<string, string>) => Reply,
  ): Promise<Reply> => {
    const parsed = await parameters(req, search);
    return parsed.ok ? endpoint(parsed.params) : parsed.reply;
  };

  /** The OAuth endpoints' parameters: Strava takes them as a form, JSON or in the query string. */
  const parameters = async (
    req: IncomingMessage,
    search: string,
  ): Promise<{ ok: true; params: Record<string, string> } | { ok: false; reply: Reply }> => {
    const params: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(search)) params[k] = v;
    const body = await readRequestBody(req, maxBodyBytes);
    const kind = bodyKind(req.headers["content-type"]);
    try {
      if (kind === "json" && body.length > 0) {
        const parsed: unknown = JSON.parse(body.toString("utf8"));
        if (typeof parsed === "object" && parsed !== null) {
          for (const [k, v] of Object.entries(parsed)) if (typeof v === "string" || typeof v === "number") params[k] = String(v);
        }
      } else if (kind === "form" || kind === "multipart") {
        Object.assign(params, (await decodeForm(kind, req.headers["content-type"] ?? "", body)).fields);
      }
    } catch {
      return { ok: false, reply: faultReply(400, "Bad Request", [{ resource: "Application", field: "body", code: "invalid" }]) };
    }
    return { ok: true, params };
  };

  const control = async (req: IncomingMessage, method: string, path: string): Promise<Reply> => {
    if (!isLoopback(req.socket.remoteAddress))
      return faultReply(403, "Forbidden", [{ resource: "Sandbox", field: "controls", code: "loopback only" }]);
    const name = path.slice("/_sandbox/".length);
    const ok = (value: Parameters<typeof serializeJson>[0]): Reply => ({ status: 200, body: serializeJson(value) });
    if (method === "POST" && name === "faults") {
      try {
        const fault = validateFault(JSON.parse((await readRequestBody(req, maxBodyBytes)).toString("utf8")));
        faults.add(fault);
        return ok({ queued: faults.size });
      } catch (error) {
        return { status: 400, body: serializeJson({ message: (error as Error).message }) };
      }
    }
    if (method === "POST" && name === "expire-tokens") {
      controls.expireAccessTokens();
      return ok({ expired: true });
    }
    if (method === "GET" && name === "counters") return ok(controls.counters());
    if (method === "POST" && name === "reset-counters") {
      controls.resetCounters();
      return ok({ reset: true });
    }
    if (method === "POST" && (name === "sign-in" || name === "deauthorize")) {
      try {
        const body = JSON.parse((await readRequestBody(req, maxBodyBytes)).toString("utf8")) as { athlete_id?: unknown };
        const athleteId = Number(body.athlete_id);
        if (name === "sign-in") controls.signIn(athleteId);
        else await controls.deauthorize(athleteId);
        return ok({ [name === "sign-in" ? "signed_in" : "deauthorized"]: athleteId });
      } catch (error) {
        return { status: 400, body: serializeJson({ message: `${(error as Error).message} Send {"athlete_id": <id>}.` }) };
      }
    }
    if (method === "GET" && name === "credentials") {
      return ok({ client_id: sandboxClientId, client_secret: clientSecret, refresh_token: oauth.seededRefreshToken() });
    }
    return {
      status: 404,
      body: serializeJson({
        message: `No sandbox control ${method} ${path}. Controls: POST /_sandbox/faults, POST /_sandbox/expire-tokens, GET /_sandbox/counters, POST /_sandbox/reset-counters, GET /_sandbox/credentials, POST /_sandbox/sign-in, POST /_sandbox/deauthorize.`,
      }),
    };
  };

  const server = createServer({ keepAlive: true }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof RequestBodyTooLargeError) {
        // The rest of the body is never read: the connection closes after this answer.
        writeReply(res, faultReply(413, "Payload Too Large", [{ resource: "Upload", field: "file", code: "too large" }]), {
          ...limiter.headers(),
          Connection: "close",
        });
        return;
      }
      // A client that hung up mid-request (timeouts, aborted uploads) is not the sandbox's failure.
      if (req.destroyed || (error as NodeJS.ErrnoException).code === "ECONNRESET" || (error as Error).message === "aborted") {
        res.destroy();
        return;
      }
      process.stderr.write(JSON.stringify({ level: "error", event: "sandbox_request_failed", message: (error as Error).message }) + "\n");
      if (!res.headersSent) writeReply(res, serverError(500, "Internal Server Error"), limiter.headers());
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;

  await once(server.listen(options.port ?? 0, host), "listening");
  const address = server.address() as AddressInfo;
  const hostPart = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const baseUrl = `http://${hostPart}:${address.port}`;

  return {
    baseUrl,
    apiBase: `${baseUrl}/api/v3`,
    intervalsApiBase: `${baseUrl}${intervalsFacePrefix}/api/v1`,
    intervalsApiKey: intervals.apiKey,
    intervalsAthleteId,
    tokenUrl: `${baseUrl}/oauth/token`,
    authorizeUrl: `${baseUrl}/oauth/authorize`,
    revokeUrl: `${baseUrl}/oauth/revoke`,
    clientId: sandboxClientId,
    clientSecret,
    refreshToken: () => oauth.seededRefreshToken(),
    acceptsRefreshToken: (refreshToken) => oauth.acceptsRefreshToken(refreshToken),
    athleteId: firstAthlete.id,
    secondAthleteId: options.secondAthlete ? secondAthlete.id : undefined,
    signIn: controls.signIn,
    deauthorize: controls.deauthorize,
    clubId: seedClub.id,
    activityCount: () => store.all().length,
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

function writeReply(res: ServerResponse, reply: Reply, rateLimitHeaders: Record<string, string>, written?: () => void): void {
  const headers: Record<string, string | number> = {
    ...rateLimitHeaders,
    "Content-Type": reply.contentType ?? jsonContentType,
    "Content-Length": Buffer.byteLength(reply.body),
    [sandboxHeader]: "1",
    ...reply.headers,
  };
  res.writeHead(reply.status, headers);
  res.end(reply.body, written);
}

function isLoopback(address: string | undefined): boolean {
  return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1" || (address?.startsWith("127.") ?? false);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function checkLimits(name: string, pair: LimitPair): LimitPair {
  if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((n) => Number.isInteger(n) && n >= 0)) {
    throw new Error(`Sandbox option ${name} must be [fifteenMinuteLimit, dailyLimit], two integers >= 0; got ${JSON.stringify(pair)}.`);
  }
  return pair;
}

function checkPositive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`Sandbox option ${name} must be a number > 0; got ${value}.`);
  return value;
}

function checkNonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`Sandbox option ${name} must be a number >= 0; got ${value}.`);
  return value;
}

/**
 * A "non-json" fault stands for an intermediary (proxy, load balancer) answering with an HTML page
 * instead of Strava: the request never reaches the upstream's logic, so nothing changes state (a
 * refresh token is not rotated). A "truncate" fault, by contrast, cuts the upstream's real answer.
 */
function intermediaryPage(fault: Fault): Reply {
  return { status: fault.status ?? 200, body: nonJsonBody, contentType: "text/html; charset=utf-8" };
}
