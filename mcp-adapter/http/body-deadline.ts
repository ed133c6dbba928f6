/**
 * A deadline for the body of a request to an endpoint anybody may call without a token (OAuth mode's
 * authorization server and Strava's webhook, http-routes.ts). Their bodies are a few KiB of form or JSON,
 * but without a deadline a client that sends one byte now and then holds its connection until the
 * server's request timeout (2 minutes), and a few thousand such clients hold every connection the server
 * takes. When the body has not fully arrived in time the request is destroyed with its socket, so the
 * connection is freed, not merely left unread. `/mcp` keeps the request timeout: an upload takes time.
 */
import type { IncomingMessage } from "node:http";
import { NamedError } from "../../common/named-error.ts";

/**
 * 10 s, as for the headers: a 16 KiB body arrives within it even over a poor mobile link, while a client
 * that trickles must open a new connection every 10 s to keep holding one.
 */
export const unauthenticatedBodyDeadlineMs = 10_000;

/** What a request cut at its deadline fails with (the body's reader sees it). */
export class BodyDeadlineError extends NamedError {}

/** Destroys `request` and its socket unless its whole body has arrived `deadlineMs` after its headers; calls `onCut` when it does. */
export function enforceBodyDeadline(request: IncomingMessage, deadlineMs: number, onCut: () => void): void {
  if (request.complete) return;
  const timer = setTimeout(() => {
    if (request.complete || request.destroyed) return;
    onCut();
    request.destroy(new BodyDeadlineError(`The request body did not arrive within ${deadlineMs / 1000} s.`));
  }, deadlineMs);
  request.once("close", () => clearTimeout(timer));
}
