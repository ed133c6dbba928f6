/**
 * The route table's first step: the Host header. A server bound to loopback takes only loopback names (and
 * PUBLIC_URL's host in OAuth mode), so a page of another site that got its name to resolve to 127.0.0.1 (DNS
 * rebinding) is refused (403). Bound beyond loopback there is no list, and no check. The SDK's validator
 * decides; refusals are counted a line per interval.
 */
import { validateHostHeader } from "@modelcontextprotocol/server";
import type { RateLimitedLog } from "../../../common/rate-limited-log.ts";
import { jsonRpcRefusal, type RouteStep } from "./route-step.ts";

export function hostCheck(allowedHostnames: string[] | undefined, forbidden: RateLimitedLog): RouteStep {
  return (request) => {
    if (allowedHostnames === undefined) return undefined;
    const host = validateHostHeader(request.header("host"), allowedHostnames);
    if (host.ok) return undefined;
    forbidden.record(host.errorCode, { host: request.header("host")?.slice(0, 100) });
    return jsonRpcRefusal(403, host.message);
  };
}
