/**
 * The sandbox's request handler for node:http: the path chooses the controls (/_sandbox/), the intervals.icu face or
 * Strava's side; a failure is answered as Strava would (413 for a body over the upload limit, 500 otherwise), and a
 * client that hung up is not the sandbox's failure.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RequestBodyTooLargeError } from "../../common/read-request-body.ts";
import { faultReply, serverError } from "../fault-bodies.ts";
import { controlRoute } from "./sandbox-controls.ts";
import { intervalsRequest, isIntervalsPath } from "./intervals-request.ts";
import type { SandboxParts } from "./sandbox-parts.ts";
import { stravaRequest, stravaTarget } from "./strava-request.ts";
import { writeReply } from "./write-reply.ts";

export function sandboxRequestHandler(parts: SandboxParts): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    routeRequest(req, res, parts).catch((error: unknown) => requestFailed(error, req, res, parts));
  };
}

async function routeRequest(req: IncomingMessage, res: ServerResponse, parts: SandboxParts): Promise<void> {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? "" : url.slice(q);
  const method = req.method ?? "GET";
  if (path.startsWith("/_sandbox/")) return writeReply(res, await controlRoute(req, method, path, parts), parts.limiter.headers());
  if (isIntervalsPath(path)) return intervalsRequest(req, res, parts, { method, path, search });
  return stravaRequest(req, res, parts, stravaTarget(method, path, search));
}

function requestFailed(error: unknown, req: IncomingMessage, res: ServerResponse, parts: SandboxParts): void {
  if (error instanceof RequestBodyTooLargeError) {
    // The rest of the body is never read: the connection closes after this answer.
    writeReply(res, faultReply(413, "Payload Too Large", [{ resource: "Upload", field: "file", code: "too large" }]), {
      ...parts.limiter.headers(),
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
  if (!res.headersSent) writeReply(res, serverError(500, "Internal Server Error"), parts.limiter.headers());
  else res.destroy();
}
