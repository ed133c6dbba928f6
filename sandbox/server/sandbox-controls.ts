/**
 * The sandbox's test controls: queue a fault, expire every access token, read and reset the counters, sign an athlete
 * in at the authorize page, and the athlete's revocation on Strava's settings page (its push event delivered). Tests
 * in the same process call them on the running sandbox; a client elsewhere POSTs or GETs them under /_sandbox/,
 * from loopback only, never under /api/v3.
 */
import type { IncomingMessage } from "node:http";
import { readRequestBody } from "../../common/read-request-body.ts";
import { serializeJson } from "../bigint-json.ts";
import { faultReply } from "../fault-bodies.ts";
import { validateFault, type Fault } from "../injected-faults.ts";
import type { Reply } from "../reply.ts";
import type { SandboxCounters } from "./request-counters.ts";
import { maxBodyBytes } from "./write-reply.ts";
import { sandboxClientId, type SandboxParts } from "./sandbox-parts.ts";

export interface SandboxControls {
  injectFault(fault: Fault): void;
  expireAccessTokens(): void;
  counters(): SandboxCounters;
  resetCounters(): void;
  signIn(athleteId: number): void;
  deauthorize(athleteId: number): Promise<void>;
}

export function sandboxControls(parts: SandboxParts): SandboxControls {
  return {
    injectFault: (fault) => parts.faults.add(fault),
    expireAccessTokens: () => parts.oauth.expireAccessTokens(),
    counters: () => parts.counters.snapshot(),
    resetCounters: () => parts.counters.reset(),
    signIn: (athleteId) => {
      parts.signedIn.athleteId = parts.checkAthlete(athleteId);
    },
    deauthorize: async (athleteId) => {
      if (!parts.oauth.deauthorize(parts.checkAthlete(athleteId))) return;
      await parts.pushSubscriptions.push({
        aspect_type: "update",
        object_type: "athlete",
        object_id: athleteId,
        owner_id: athleteId,
        updates: { authorized: "false" },
      });
    },
  };
}

/** A request under /_sandbox/: the control it names, or 404 listing them; 403 unless from loopback. */
export async function controlRoute(req: IncomingMessage, method: string, path: string, parts: SandboxParts): Promise<Reply> {
  if (!isLoopback(req.socket.remoteAddress))
    return faultReply(403, "Forbidden", [{ resource: "Sandbox", field: "controls", code: "loopback only" }]);
  const controls = sandboxControls(parts);
  const name = path.slice("/_sandbox/".length);
  if (method === "POST" && name === "faults") {
    try {
      const fault = validateFault(JSON.parse((await readRequestBody(req, maxBodyBytes)).toString("utf8")));
      controls.injectFault(fault);
      return ok({ queued: parts.faults.size });
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
  if (method === "POST" && (name === "sign-in" || name === "deauthorize")) return athleteControl(req, name, controls);
  if (method === "GET" && name === "credentials") {
    return ok({ client_id: sandboxClientId, client_secret: parts.clientSecret, refresh_token: parts.oauth.seededRefreshToken() });
  }
  return {
    status: 404,
    body: serializeJson({
      message: `No sandbox control ${method} ${path}. Controls: POST /_sandbox/faults, POST /_sandbox/expire-tokens, GET /_sandbox/counters, POST /_sandbox/reset-counters, GET /_sandbox/credentials, POST /_sandbox/sign-in, POST /_sandbox/deauthorize.`,
    }),
  };
}

/** POST /_sandbox/sign-in or /_sandbox/deauthorize with {"athlete_id": <id>}. */
async function athleteControl(req: IncomingMessage, name: "sign-in" | "deauthorize", controls: SandboxControls): Promise<Reply> {
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

function ok(value: Parameters<typeof serializeJson>[0]): Reply {
  return { status: 200, body: serializeJson(value) };
}

export function isLoopback(address: string | undefined): boolean {
  return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1" || (address?.startsWith("127.") ?? false);
}
