/**
 * Problem 4 of the token-durability issue: SIGKILL shortly after a rotated token reached the server.
 *
 * Each round: a server starts on the store and makes a call (which proves whether the previous round's
 * token survived), then all access tokens are expired and a burst of calls makes it refresh. When the
 * sandbox has handed its answer (with a new refresh token; the old one is dead from then on) to the
 * kernel, the scenario watches the connection's receive queue until the server has read it (the token's
 * arrival), and kills the server with SIGKILL a random `minDelayMs` to `maxDelayMs` after that (5 to 12 by
 * default; later kills find the save long finished: a token file takes a few milliseconds, moto one or two
 * round trips), counting only the server's own time: while the rest of the machine keeps it waiting for a
 * processor the clock is stopped (server-progress.ts), and the figures count how often that put a kill off
 * by a millisecond or more.
 *
 * The watch sees the read late, never early: one look at /proc/net/tcp takes about 5 ms once moto has left
 * hundreds of closed connections in it, on a thread that also runs the sandbox and the store's other
 * readers. Measured against the server's own clock, it saw the read 8 to 76 ms after it happened (a worker
 * thread of its own did no better), so the kills land that much later than the delay chosen. A kill is
 * therefore never early enough to be unfair; the figures' "kill after arrival" is from the watch's moment.
 *
 * Outcomes: `saved` (the next server works with the stored tokens; this includes a save the killed
 * server had sent and that landed, and a half-done save the next server finished), `lost in transit`
 * (the server never read the answer before the kill: no client can prevent that), and `lost` (it read
 * the answer and still the next server holds a dead refresh token). After a loss the store is given a
 * fresh grant so the next rounds measure again.
 */
import type { RunningSandbox, TokenAnswer } from "../../sandbox/server.ts";
import { callTool, delay, startServer } from "./fleet.ts";
import { runQueueWaitNs } from "./server-progress.ts";
import { whenRead } from "./socket-receive-queue.ts";

export interface KillOptions {
  sandbox: RunningSandbox;
  /** The sandbox's onTokenAnswer calls `hooks.onTokenAnswer`. */
  hooks: { onTokenAnswer?: ((answer: TokenAnswer) => void) | undefined };
  /** The environment of a server on the store as it is now (changes after `reseed`). */
  env: () => Record<string, string>;
  /** The bearer token the servers take (default: the fleet's own). */
  bearer?: (() => string) | undefined;
  kills: number;
  /**
   * Measurement only (BENCHMARKS.md): kill `minDelayMs` to `maxDelayMs` of wall time after the sandbox wrote
   * the answer, without waiting to see the server read it. Earlier than the test's own timing can be, so a
   * loss in transit cannot be told from one in the server: every loss counts as lost.
   */
  afterWrite?: boolean;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Puts a fresh grant in the store (after a loss). */
  reseed: () => Promise<void>;
  /** Whether the store holds a save left half done (a journal file, a pending version), looked at before the next server starts. */
  halfDoneSave: () => Promise<boolean>;
  /**
   * Other work for the store while the server refreshes (other instances reading a shared secret), started
   * before the burst and stopped after the kill: a store that answers slowly is where a read before the
   * save costs the token.
   */
  storeLoad?: (() => () => Promise<void>) | undefined;
}

export interface KillFigures {
  kills: number;
  saved: number;
  /** Saved ones that the next server had to finish (the kill came between the durable write and making it current). */
  finishedByNextServer: number;
  lostInTransit: number;
  lost: number;
  /** Kill time minus arrival time, ms, sorted. */
  delaysMs: number[];
  /** Arrival (server read the answer) minus the sandbox's write, ms, sorted. */
  arrivalMs: number[];
  /** Kills put off by a millisecond or more because the server had waited that long for a processor. */
  waitedForCpu: number;
  problems: string[];
}

interface Round {
  inTransit: boolean;
  halfDone: boolean;
}

export async function runKills(options: KillOptions): Promise<KillFigures> {
  const min = options.minDelayMs ?? 5;
  const max = options.maxDelayMs ?? 12;
  const figures: KillFigures = {
    kills: 0,
    saved: 0,
    finishedByNextServer: 0,
    lostInTransit: 0,
    lost: 0,
    delaysMs: [],
    arrivalMs: [],
    waitedForCpu: 0,
    problems: [],
  };
  const sandboxPort = Number(new URL(options.sandbox.baseUrl).port);
  let previous: Round | undefined;
  let server = await startServer(options.env(), [], options.bearer);
  try {
    for (let round = 0; round < options.kills; round++) {
      const check = await callTool(server, "get_athlete");
      if (previous) {
        if (check.ok) {
          figures.saved++;
          if (previous.halfDone) figures.finishedByNextServer++;
        } else if (previous.inTransit) {
          figures.lostInTransit++;
        } else {
          figures.lost++;
          figures.problems.push(`round ${round}: ${check.text}`);
        }
      } else if (!check.ok) {
        throw new Error(`the first server could not make a call: ${check.text}`);
      }
      if (!check.ok) {
        await server.child.stop();
        await options.reseed();
        server = await startServer(options.env(), [], options.bearer);
        const again = await callTool(server, "get_athlete");
        if (!again.ok) throw new Error(`a fresh grant did not work: ${again.text}`);
      }

      const killed = new Promise<Round>((resolve) => {
        options.hooks.onTokenAnswer = (answer) => {
          options.hooks.onTokenAnswer = undefined;
          void (async () => {
            const pid = server.pid;
            if (options.afterWrite) {
              const at = answer.sentAt + min + Math.random() * (max - min);
              while (performance.now() < at) await new Promise((next) => setImmediate(next));
              figures.delaysMs.push(performance.now() - answer.sentAt);
              server.child.process.kill("SIGKILL");
              resolve({ inTransit: false, halfDone: false });
              return;
            }
            const readAt = await whenRead(answer.clientPort, sandboxPort, 2_000);
            const queuedAtArrival = runQueueWaitNs(pid) ?? 0;
            const wait = min + Math.random() * (max - min);
            if (readAt !== undefined) {
              figures.arrivalMs.push(readAt - answer.sentAt);
              await delay(Math.max(0, readAt + wait - performance.now() - 2));
              // Never before the chosen moment (timers may fire a little early by this clock), and the moment
              // is `wait` ms of the server's own time: time it spent queued for a processor does not count.
              let queuedMs: number;
              for (;;) {
                queuedMs = ((runQueueWaitNs(pid) ?? queuedAtArrival) - queuedAtArrival) / 1e6;
                if (performance.now() - readAt - queuedMs >= wait) break;
                await new Promise((next) => setImmediate(next));
              }
              if (queuedMs >= 1) figures.waitedForCpu++;
              figures.delaysMs.push(performance.now() - readAt);
            }
            server.child.process.kill("SIGKILL");
            resolve({ inTransit: readAt === undefined, halfDone: false });
          })();
        };
      });
      const stopLoad = options.storeLoad?.();
      options.sandbox.expireAccessTokens();
      const burst = Array.from({ length: 32 }, () => callTool(server, "get_athlete", {}, AbortSignal.timeout(20_000)));
      const outcome = await Promise.race([killed, delay(20_000).then(() => undefined)]);
      if (outcome === undefined) throw new Error(`round ${round}: the server made no token request within 20 s`);
      await server.child.exited;
      await stopLoad?.();
      await Promise.all(burst);
      // A request the server sent before it died may still be in the store's hands: let it land.
      await delay(200);
      figures.kills++;
      outcome.halfDone = await options.halfDoneSave();
      previous = outcome;
      server = await startServer(options.env(), [], options.bearer);
    }
    const last = await callTool(server, "get_athlete");
    if (previous) {
      if (last.ok) {
        figures.saved++;
        if (previous.halfDone) figures.finishedByNextServer++;
      } else if (previous.inTransit) figures.lostInTransit++;
      else {
        figures.lost++;
        figures.problems.push(`last round: ${last.text}`);
      }
    }
  } catch (error) {
    // Reported with the figures so far (the test fails on any problem).
    figures.problems.push(`stopped after ${figures.kills} kills: ${(error as Error).message}`);
  } finally {
    options.hooks.onTokenAnswer = undefined;
    await server.child.stop();
  }
  figures.delaysMs.sort((a, b) => a - b);
  figures.arrivalMs.sort((a, b) => a - b);
  return figures;
}

/** "min/median/max" of sorted figures, rounded to 0.1. */
export function spread(sorted: number[]): string {
  if (sorted.length === 0) return "none";
  const at = (q: number): string => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
  return `${at(0)}/${at(0.5)}/${at(1)}`;
}
