/**
 * Faults a test can inject into the sandbox's next answers: an error status with a Strava Fault body,
 * a delay, a reset connection, a truncated body, a body that is not JSON (an HTML error page, as a
 * proxy in front of Strava sends), or Strava's 403 "Application Status Inactive" (an API application
 * whose developer has no subscription). Each is queued with an optional match and a count.
 */
import type { ServerResponse } from "node:http";

export type Fault = {
  /** Substring of "METHOD /path?query", or a "METHOD /path" prefix; the path may include /api/v3 or not. Default: any request. */
  match?: string;
  /** How many requests it applies to (default 1). */
  times?: number;
  kind: "status" | "delay" | "reset" | "truncate" | "non-json" | "application-inactive";
  /** For "status" (e.g. 500, 503); also the status of a "non-json" answer (default 200). */
  status?: number;
  /** For "delay": wait this long, then answer normally. */
  delayMs?: number;
};

const kinds = new Set(["status", "delay", "reset", "truncate", "non-json", "application-inactive"]);

/** Checks a fault given over HTTP or in code; throws an Error saying what is wrong. */
export function validateFault(value: unknown): Fault {
  if (typeof value !== "object" || value === null) throw new Error('A fault is a JSON object, e.g. {"kind":"status","status":500}.');
  const f = value as Record<string, unknown>;
  if (typeof f["kind"] !== "string" || !kinds.has(f["kind"])) {
    throw new Error(`Fault "kind" must be one of ${[...kinds].join(", ")}; got ${JSON.stringify(f["kind"])}.`);
  }
  if (f["match"] !== undefined && (typeof f["match"] !== "string" || f["match"] === ""))
    throw new Error('Fault "match" must be a non-empty string.');
  if (f["times"] !== undefined && !(Number.isInteger(f["times"]) && (f["times"] as number) >= 1))
    throw new Error('Fault "times" must be an integer >= 1.');
  if (f["kind"] === "status" && !(Number.isInteger(f["status"]) && (f["status"] as number) >= 400 && (f["status"] as number) <= 599)) {
    throw new Error('A "status" fault needs "status", an HTTP error status from 400 to 599 (e.g. 500).');
  }
  if (
    f["kind"] === "non-json" &&
    f["status"] !== undefined &&
    !(Number.isInteger(f["status"]) && (f["status"] as number) >= 200 && (f["status"] as number) <= 599)
  ) {
    throw new Error('A "non-json" fault\'s "status" must be an HTTP status from 200 to 599.');
  }
  if (f["kind"] === "delay" && !(typeof f["delayMs"] === "number" && f["delayMs"] >= 0 && f["delayMs"] <= 600_000)) {
    throw new Error('A "delay" fault needs "delayMs", a number of milliseconds from 0 to 600000.');
  }
  const fault: Fault = { kind: f["kind"] as Fault["kind"] };
  if (typeof f["match"] === "string") fault.match = f["match"];
  if (typeof f["times"] === "number") fault.times = f["times"];
  if (typeof f["status"] === "number") fault.status = f["status"];
  if (typeof f["delayMs"] === "number") fault.delayMs = f["delayMs"];
  return fault;
}

interface QueuedFault {
  fault: Fault;
  remaining: number;
}

export class FaultQueue {
  private readonly queue: QueuedFault[] = [];

  add(fault: Fault): void {
    const valid = validateFault(fault);
    this.queue.push({ fault: valid, remaining: valid.times ?? 1 });
  }

  get size(): number {
    return this.queue.length;
  }

  /**
   * The first queued fault matching this request, used up by one. `descriptions` are the request as
   * "METHOD /full/path?query" and, for API requests, "METHOD /path-below-api-base?query".
   */
  take(descriptions: readonly string[]): Fault | undefined {
    if (this.queue.length === 0) return undefined;
    const index = this.queue.findIndex((q) => q.fault.match === undefined || descriptions.some((d) => matches(d, q.fault.match!)));
    if (index < 0) return undefined;
    const queued = this.queue[index]!;
    queued.remaining--;
    if (queued.remaining <= 0) this.queue.splice(index, 1);
    return queued.fault;
  }
}

function matches(description: string, match: string): boolean {
  return /^[A-Z]+ \//.test(match) ? description.startsWith(match) : description.includes(match);
}

/** "reset": the connection dies without an answer (ECONNRESET on the client). */
export function resetConnection(res: ServerResponse): void {
  res.socket?.resetAndDestroy?.();
  res.socket?.destroy();
}

/** "truncate": headers promise the whole body, about half of it arrives, then the connection closes. */
export function writeTruncated(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  const bytes = Buffer.from(body, "utf8");
  const cut = Math.max(1, Math.floor(bytes.length / 2));
  res.writeHead(status, { ...headers, "Content-Length": String(bytes.length) });
  res.write(bytes.subarray(0, cut), () => res.socket?.destroy());
}

/** "non-json": an HTML error page where JSON was expected. */
export const nonJsonBody =
  "<!DOCTYPE html>\n<html><head><title>Strava</title></head><body><h1>Something went wrong</h1>" +
  "<p>The server encountered an error. Please try again.</p></body></html>\n";
