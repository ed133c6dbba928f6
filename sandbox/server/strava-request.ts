/**
 * A request to the sandbox's Strava side, in the order Strava's edge takes it: count it -> an injected fault? -> the
 * rate limits (API calls only) -> the route (the access token, scopes, parameters, state) -> the answer written with
 * the rate-limit headers. The OAuth endpoints (token, authorize, revoke) answer at /oauth/ and under /api/v3 alike;
 * push subscriptions are counted but neither limited nor faulted, as the sandbox has always served them.
 */
import { STATUS_CODES } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readRequestBody } from "../../common/read-request-body.ts";
import { handleApi, routeKey } from "../api-routes.ts";
import { applicationInactive, pathNotFound, rateLimitExceeded, serverError } from "../fault-bodies.ts";
import { resetConnection, writeTruncated, type Fault } from "../injected-faults.ts";
import type { Reply } from "../reply.ts";
import { jsonContentType } from "../reply.ts";
import { oauthParameters, replyWithParameters } from "./oauth-parameters.ts";
import type { SandboxParts } from "./sandbox-parts.ts";
import { intermediaryPage, maxBodyBytes, sleep, writeReply } from "./write-reply.ts";

/** Which of Strava's endpoints a request names, and its route for the counters. */
export interface StravaTarget {
  method: string;
  path: string;
  /** The query string with its "?", or "". */
  search: string;
  isApi: boolean;
  /** The path below /api/v3 ("" outside it). */
  apiPath: string;
  oauthEndpoint: "token" | "authorize" | "revoke" | undefined;
  /** "GET /activities/{id}", "POST /oauth/token", ... */
  route: string;
}

export function stravaTarget(method: string, path: string, search: string): StravaTarget {
  const isApi = path.startsWith("/api/v3/");
  const apiPath = isApi ? path.slice(7) : "";
  const oauthEndpoint = (["token", "authorize", "revoke"] as const).find(
    (name) => path === `/oauth/${name}` || path === `/api/v3/oauth/${name}`,
  );
  const route = oauthEndpoint ? `${method} /oauth/${oauthEndpoint}` : isApi ? routeKey(method, apiPath) : `${method} ${path}`;
  return { method, path, search, isApi, apiPath, oauthEndpoint, route };
}

export async function stravaRequest(req: IncomingMessage, res: ServerResponse, parts: SandboxParts, target: StravaTarget): Promise<void> {
  const { method, path, search, isApi, apiPath, oauthEndpoint } = target;
  if (apiPath === "/push_subscriptions" || apiPath.startsWith("/push_subscriptions/"))
    return pushSubscriptionRequest(req, res, parts, target);
  parts.counters.count(target.route, oauthEndpoint === "token" ? "token" : isApi ? "api" : undefined);
  const fault =
    parts.faults.size > 0
      ? parts.faults.take(
          isApi && oauthEndpoint !== "token"
            ? [`${method} ${path}${search}`, `${method} ${apiPath}${search}`]
            : [`${method} ${path}${search}`],
        )
      : undefined;
  if (fault?.kind === "reset") return resetConnection(res);
  if (fault?.kind === "delay") await sleep(fault.delayMs ?? 0);
  const { headers, reply } =
    isApi && !oauthEndpoint ? await apiAnswer(req, parts, target, fault) : await oauthAnswer(req, parts, target, fault);
  if (oauthEndpoint === "token" && reply.status === 400 && reply.body.includes('"RefreshToken"')) parts.counters.refreshTokenRejected();
  writeStravaAnswer(req, res, parts, { target, fault, headers, reply });
}

async function pushSubscriptionRequest(
  req: IncomingMessage,
  res: ServerResponse,
  parts: SandboxParts,
  target: StravaTarget,
): Promise<void> {
  parts.counters.count(`${target.method} /push_subscriptions`);
  const parsed = await oauthParameters(req, target.search);
  const reply = parsed.ok
    ? await parts.pushSubscriptions.handle(target.method, target.apiPath.slice("/push_subscriptions".length), parsed.params)
    : parsed.reply;
  return writeReply(res, reply, parts.limiter.headers());
}

/** What a fault puts in place of the upstream's answer (status, an intermediary's page, an inactive application). */
function faultedReply(fault: Fault | undefined): Reply | undefined {
  if (fault?.kind === "status") return serverError(fault.status ?? 500, STATUS_CODES[fault.status ?? 500] ?? "Error");
  if (fault?.kind === "non-json") return intermediaryPage(fault);
  if (fault?.kind === "application-inactive") return applicationInactive();
  return undefined;
}

type Answer = { headers: Record<string, string>; reply: Reply };

/** An API call: counted against the rate limits first (a read when GET or HEAD), then answered. */
async function apiAnswer(req: IncomingMessage, parts: SandboxParts, target: StravaTarget, fault: Fault | undefined): Promise<Answer> {
  const verdict = parts.limiter.record(target.method === "GET" || target.method === "HEAD");
  const reply = faultedReply(fault) ?? (verdict.exceeded ? rateLimitExceeded() : await apiReply(req, parts, target));
  return { headers: verdict.headers, reply };
}

/** The access token's athlete's data answers the call; the body is read only once the token is good. */
async function apiReply(req: IncomingMessage, parts: SandboxParts, { method, apiPath, search }: StravaTarget): Promise<Reply> {
  const query = new URLSearchParams(search);
  const auth = parts.oauth.authenticate(req.headers.authorization, query.get("access_token"));
  if (!auth.ok) {
    req.resume();
    return auth.reply;
  }
  const body = method === "POST" || method === "PUT" ? await readRequestBody(req, maxBodyBytes) : Buffer.alloc(0);
  const athleteState = parts.states.get(auth.athleteId) ?? parts.firstState;
  return handleApi({ method, path: apiPath, query, contentType: req.headers["content-type"], body, scopes: auth.scopes }, athleteState);
}

/** The OAuth endpoints, and any other path outside the API (404): not rate limited, but they carry the headers. */
async function oauthAnswer(req: IncomingMessage, parts: SandboxParts, target: StravaTarget, fault: Fault | undefined): Promise<Answer> {
  const headers = parts.limiter.headers();
  const { method, search, oauthEndpoint } = target;
  const { oauth } = parts;
  let reply = faultedReply(fault);
  if (reply) return { headers, reply };
  if (oauthEndpoint === "token" && method === "POST") reply = await replyWithParameters(req, search, (params) => oauth.token(params));
  else if (oauthEndpoint === "revoke" && method === "POST")
    reply = await replyWithParameters(req, search, (params) => oauth.revoke(req.headers.authorization, params));
  else if (oauthEndpoint === "authorize" && method === "GET") reply = oauth.authorize(new URLSearchParams(search));
  else reply = pathNotFound();
  return { headers, reply };
}

/** The answer on the wire: cut short by a "truncate" fault; a token answer told to `onTokenAnswer` once written. */
function writeStravaAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  parts: SandboxParts,
  { target, fault, headers, reply }: { target: StravaTarget; fault: Fault | undefined } & Answer,
): void {
  if (fault?.kind === "truncate") {
    return writeTruncated(res, reply.status, { ...headers, "Content-Type": reply.contentType ?? jsonContentType }, reply.body);
  }
  const onTokenAnswer = parts.options.onTokenAnswer;
  if (target.oauthEndpoint === "token" && reply.status === 200 && onTokenAnswer) {
    const clientPort = req.socket.remotePort ?? 0;
    const refreshToken = (JSON.parse(reply.body) as { refresh_token: string }).refresh_token;
    writeReply(res, reply, headers, () => onTokenAnswer({ clientPort, refreshToken, sentAt: performance.now() }));
    return;
  }
  writeReply(res, reply, headers);
}
