/**
 * Whether the Strava-shaped server STRAVA_API_BASE names is Strava or this package's sandbox (`npm run sandbox`
 * prints lines that point a server at it), so that the start-up log, /health and the terminal say `sandbox` and
 * nobody takes made-up data for their training log.
 *
 * How: the sandbox marks every answer with a header of its own (sandbox/sandbox-header.ts). Strava's own hosts
 * (`*.strava.com`, the default) are taken for Strava without a request; any other base is asked once at start-up,
 * without credentials (`GET <base>/athlete`, which both answer 401), within a short timeout. A base that does not
 * answer in time, or answers without the header (a proxy in front of Strava, say), counts as Strava: it is only a
 * label, and a server that is down says so at the first call.
 */
import { sandboxHeader } from "../sandbox/sandbox-header.ts";

/** Which upstream a server talks to, as its log, /health and banner say. */
export type UpstreamKind = "strava" | "sandbox";

const probeTimeoutMs = 1_500;

export async function upstreamKindAt(apiBase: string): Promise<UpstreamKind> {
  const host = new URL(apiBase).hostname;
  if (host === "strava.com" || host.endsWith(".strava.com")) return "strava";
  try {
    const answer = await fetch(`${apiBase}/athlete`, { signal: AbortSignal.timeout(probeTimeoutMs), redirect: "manual" });
    await answer.body?.cancel();
    return answer.headers.has(sandboxHeader) ? "sandbox" : "strava";
  } catch {
    return "strava";
  }
}
