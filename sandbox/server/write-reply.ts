/**
 * Writing a Reply on the wire: the rate-limit headers (on Strava's side), the content type and length, and the
 * header that tells the sandbox from Strava; and the pages an injected fault puts in the upstream's place.
 */
import type { ServerResponse } from "node:http";
import { nonJsonBody, type Fault } from "../injected-faults.ts";
import type { Reply } from "../reply.ts";
import { jsonContentType } from "../reply.ts";
import { sandboxHeader } from "../sandbox-header.ts";

/** Strava's upload limit is 25 MB; a little room for the multipart framing. */
export const maxBodyBytes = 26 * 1024 * 1024;

export function writeReply(res: ServerResponse, reply: Reply, rateLimitHeaders: Record<string, string>, written?: () => void): void {
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

/**
 * A "non-json" fault stands for an intermediary (proxy, load balancer) answering with an HTML page
 * instead of Strava: the request never reaches the upstream's logic, so nothing changes state (a
 * refresh token is not rotated). A "truncate" fault, by contrast, cuts the upstream's real answer.
 */
export function intermediaryPage(fault: Fault): Reply {
  return { status: fault.status ?? 200, body: nonJsonBody, contentType: "text/html; charset=utf-8" };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
