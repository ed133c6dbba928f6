/**
 * OAuth mode's routes on node:http: the request goes to the OAuth app (authorization/oauth-app.ts) as a web
 * `Request`, with the address it came from, and its body has a deadline (body-deadline.ts): anybody may call
 * these endpoints without a token, so a body that trickles must not hold the connection.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import type { Logger } from "../../common/logger.ts";
import type { RateLimitedLog } from "../../common/rate-limited-log.ts";
import { BodyDeadlineError, enforceBodyDeadline, unauthenticatedBodyDeadlineMs } from "./body-deadline.ts";

/** What this route needs of the OAuth app. */
export interface OAuthAppRoutes {
  /** A path of its own as a log line may show it (a secret in it left out). */
  loggedPath(path: string): string;
  route(request: Request, origin: { address: string | undefined }): Promise<Response>;
  originOf(
    headerValue: (name: string) => string | null | undefined,
    connectionAddress: string | undefined,
  ): { address: string | undefined };
}

/** Serves a request the route table gave to the OAuth app; `incomplete` counts bodies cut or abandoned. */
export function createOAuthNodeRoute(
  oauth: OAuthAppRoutes,
  logs: { logger: Logger; incomplete: RateLimitedLog },
): (request: IncomingMessage, response: ServerResponse, path: string) => void {
  const { logger, incomplete } = logs;
  const serve = (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const origin = oauth.originOf((name) => headerText(request.headers[name]), request.socket.remoteAddress);
    return toNodeHandler(
      { fetch: (web: Request) => oauth.route(web, origin) },
      {
        maxRequestBodySize: 64 * 1024,
        // Reading the body is the only step that fails here (the app answers its own faults): a client
        // that left, or one cut off at the deadline (already counted), is no fault of the server's.
        onerror: (error) => {
          if (error instanceof BodyDeadlineError) return;
          if ((error as NodeJS.ErrnoException).code === "ECONNRESET") incomplete.record("client_left");
          else logger.error("http_internal_error", { path: "oauth", error });
        },
      },
    )(request, response);
  };
  return (request, response, path) => {
    const logged = oauth.loggedPath(path);
    enforceBodyDeadline(request, unauthenticatedBodyDeadlineMs, () =>
      incomplete.record("deadline", { path: logged, deadline_s: unauthenticatedBodyDeadlineMs / 1000 }),
    );
    // The body has a deadline: a client waiting to be asked for it should not spend it waiting.
    if (request.headers.expect?.toLowerCase() === "100-continue") response.writeContinue();
    serve(request, response).catch((error: unknown) => logger.error("http_internal_error", { path: logged, error }));
  };
}

/** A header's value as one string (repeated headers joined as HTTP joins them). */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}
