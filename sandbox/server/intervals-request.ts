/**
 * A request to the sandbox's intervals.icu face (under /intervals/api/v1): counted and open to injected faults like
 * the Strava API, without Strava's rate-limit headers (intervals.icu limits each address itself, in the face).
 */
import { STATUS_CODES } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readRequestBody } from "../../common/read-request-body.ts";
import { resetConnection, writeTruncated, type Fault } from "../injected-faults.ts";
import { IntervalsFace, intervalsFacePrefix } from "../intervals-face/intervals-face.ts";
import { errorReply } from "../intervals-face/intervals-replies.ts";
import type { Reply } from "../reply.ts";
import { jsonContentType } from "../reply.ts";
import type { SandboxParts } from "./sandbox-parts.ts";
import { intermediaryPage, maxBodyBytes, sleep, writeReply } from "./write-reply.ts";

/** Whether a path is the intervals.icu face's. */
export function isIntervalsPath(path: string): boolean {
  return path === intervalsFacePrefix || path.startsWith(intervalsFacePrefix + "/");
}

export async function intervalsRequest(
  req: IncomingMessage,
  res: ServerResponse,
  parts: SandboxParts,
  { method, path, search }: { method: string; path: string; search: string },
): Promise<void> {
  parts.counters.count(IntervalsFace.routeKey(method, path));
  const below = path.slice(intervalsFacePrefix.length);
  const fault = parts.faults.size > 0 ? parts.faults.take([`${method} ${path}${search}`, `${method} ${below}${search}`]) : undefined;
  if (fault?.kind === "reset") return resetConnection(res);
  if (fault?.kind === "delay") await sleep(fault.delayMs ?? 0);
  const reply = faultedReply(fault) ?? (await faceReply(req, parts, { method, path, search }));
  // A request whose body was never read (refused before it) must not leave it in the connection.
  if (!req.complete) req.resume();
  if (fault?.kind === "truncate")
    return writeTruncated(res, reply.status, { "Content-Type": reply.contentType ?? jsonContentType }, reply.body);
  writeReply(res, reply, {});
}

/** What a fault puts in place of the face's answer: a status (an inactive application is intervals.icu's 403), or an intermediary's page. */
function faultedReply(fault: Fault | undefined): Reply | undefined {
  if (fault?.kind === "status" || fault?.kind === "application-inactive") {
    const status = fault.kind === "status" ? (fault.status ?? 500) : 403;
    return errorReply(status, STATUS_CODES[status] ?? "Error");
  }
  if (fault?.kind === "non-json") return intermediaryPage(fault);
  return undefined;
}

function faceReply(
  req: IncomingMessage,
  parts: SandboxParts,
  { method, path, search }: { method: string; path: string; search: string },
): Promise<Reply> {
  return parts.intervals.handle({
    method,
    path,
    query: new URLSearchParams(search),
    authorization: req.headers.authorization,
    contentType: req.headers["content-type"],
    address: req.socket.remoteAddress ?? "",
    body: () => readRequestBody(req, maxBodyBytes),
  });
}
