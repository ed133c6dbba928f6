/**
 * The one shutdown sequence of the MCP server, whatever asked for it (SIGINT, SIGTERM, the stdio client closing
 * standard input), in this order:
 *
 * 1. stop accepting: no new connections (HTTP) or messages (stdio);
 * 2. let the calls in flight finish and be answered, for at most `graceMs` (documented: 5 s), while the
 *    core settles: no new token refresh starts, and one in progress finishes and is saved (bounded by
 *    the core: TokenManager.settleBoundMs), so a rotated refresh token is in the store before exit;
 * 3. close the transport (what is still open after the grace is cut off);
 * 4. wait for the core to have settled, then close the upstream (the embedded sandbox);
 * 5. exit 0 (1 only if a step itself failed).
 */
import type { Logger } from "../common/logger.ts";
import type { CallsInFlight } from "./server/calls-in-flight.ts";
import type { ListeningHttp } from "./http/http-server.ts";

export const shutdownGraceMs = 5_000;

export interface ShutdownSteps {
  stopAccepting(): void;
  /** Resolves true when every call was answered, false when the grace ran out first. */
  finishCalls(graceMs: number): Promise<boolean>;
  /** How many calls are still running (logged when the grace runs out). */
  callsRunning(): number;
  closeTransport(): Promise<void>;
  /** The core's own bounded wait for a token refresh in progress and its save (TokenManager.settle). */
  settleCore(): Promise<unknown>;
  closeUpstream(): Promise<void>;
}

/** The steps of an HTTP server (bearer or OAuth mode): its listener, the exchanges it counts, its routes. */
export function httpShutdownSteps(parts: {
  listening: Pick<ListeningHttp, "stopAccepting" | "closeAllConnections">;
  exchanges: CallsInFlight;
  routes: { close(): Promise<void> };
  settleCore(): Promise<unknown>;
  closeUpstream(): Promise<void>;
}): ShutdownSteps {
  const { listening, exchanges, routes } = parts;
  return {
    stopAccepting: () => listening.stopAccepting(),
    finishCalls: (graceMs) => exchanges.finished(graceMs),
    callsRunning: () => exchanges.running,
    closeTransport: () => {
      listening.closeAllConnections();
      return routes.close();
    },
    settleCore: () => parts.settleCore(),
    closeUpstream: () => parts.closeUpstream(),
  };
}

export function createShutdown(options: { steps: ShutdownSteps; logger: Logger; graceMs?: number }): (reason: string) => Promise<void> {
  const { steps, logger } = options;
  const graceMs = options.graceMs ?? shutdownGraceMs;
  let started: Promise<void> | undefined;
  return (reason) =>
    (started ??= (async () => {
      logger.info("stopping", { reason, calls_in_flight: steps.callsRunning(), grace_ms: graceMs });
      try {
        steps.stopAccepting();
        const settled = steps.settleCore();
        if (!(await steps.finishCalls(graceMs))) {
          logger.warn("calls_cut_off", {
            calls: steps.callsRunning(),
            grace_ms: graceMs,
            message: "These calls were still running when the grace ran out.",
          });
        }
        await steps.closeTransport();
        await settled;
        await steps.closeUpstream();
        logger.info("stopped", { reason });
        await flushStandardOutput();
        process.exit(0);
      } catch (error) {
        logger.error("shutdown_failed", { error });
        process.exit(1);
      }
    })());
}

/** Waits until everything written to standard output (the last stdio answers) has been handed to the OS. */
function flushStandardOutput(): Promise<void> {
  return new Promise((resolve) => process.stdout.write("", () => resolve()));
}
