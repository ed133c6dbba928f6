/**
 * Whether the address a training log's settings name (STRAVA_API_BASE, INTERVALS_API_BASE) is that log or this
 * package's sandbox (`npm run sandbox` prints lines that point a server at it), so that the start-up log, /health and
 * the terminal say `sandbox` and nobody takes made-up data for their training log.
 *
 * How: the sandbox marks every answer with a header of its own (sandbox/sandbox-header.ts). The log's own hosts
 * (`*.strava.com`, `*.intervals.icu`, the defaults) are taken for the log without a request; any other base is asked
 * once at start-up, without credentials (`GET <base>/athlete`, which all of them refuse), within a short timeout. A
 * base that does not answer in time, or answers without the header (a proxy in front of the log, say), counts as the
 * log: it is only a label, and a server that is down says so at the first call.
 */
import { sandboxHeader } from "../sandbox/sandbox-header.ts";

import type { TrainingLog } from "../common/upstream/training-log-client.ts";

/** What answers the tools' requests, as the server's log, /health and banner say: a training log itself, or the sandbox in its place. */
export type UpstreamKind = TrainingLog | "sandbox";

const probeTimeoutMs = 1_500;

/** The log's own hosts are taken for the log without a request. */
const ownDomains: Record<TrainingLog, string> = { strava: "strava.com", "intervals.icu": "intervals.icu" };

export async function upstreamKindAt(apiBase: string, log: TrainingLog): Promise<UpstreamKind> {
  const host = new URL(apiBase).hostname;
  const domain = ownDomains[log];
  if (host === domain || host.endsWith(`.${domain}`)) return log;
  try {
    const answer = await fetch(`${apiBase}/athlete`, { signal: AbortSignal.timeout(probeTimeoutMs), redirect: "manual" });
    await answer.body?.cancel();
    return answer.headers.has(sandboxHeader) ? "sandbox" : log;
  } catch {
    return log;
  }
}
