/**
 * Problem 1 of the token-durability issue: several servers on one store, a burst of calls at each
 * when the token comes due. Forced expiries (the sandbox expires every access token at once, so every
 * server gets a 401 in the same moment: the worst case) and natural ones (tokens that live 310 s come
 * due 5-10 s after they are issued, at each server's own moment), under steady load.
 *
 * Figures: calls made and failed, successful refreshes (each one an expiry dealt with), token requests
 * and how many Strava refused (a refresh token another server had spent), and whether the store holds a
 * refresh token the sandbox accepts at the end.
 */
import type { RunningSandbox } from "../../sandbox/server.ts";
import { bearerFor, callTool, delay, serverEnv, startServer, type RunningServer, type StoreChoice, type ToolOutcome } from "./fleet.ts";

export interface SharedStoreOptions {
  /** Dedicated to this scenario (its counters are read), started with tokenLifetimeSeconds 310. */
  sandbox: RunningSandbox;
  store: StoreChoice;
  instances: number;
  forcedRounds: number;
  burstPerInstance: number;
  naturalMs: number;
  /** The refresh token the store holds now. */
  storedRefreshToken: () => Promise<string>;
}

export interface SharedStoreFigures {
  store: StoreChoice["kind"];
  instances: number;
  calls: number;
  failed: number;
  /** The calls of the bursts right after the forced expiries, and how many of them failed. */
  burstCalls: number;
  burstFailed: number;
  /** Up to five distinct failure messages. */
  failures: string[];
  forcedExpiries: number;
  refreshes: number;
  tokenRequests: number;
  refusedTokenRequests: number;
  storeHoldsLiveToken: boolean;
  cleanExits: number;
}

export async function runSharedStore(options: SharedStoreOptions): Promise<SharedStoreFigures> {
  const { sandbox } = options;
  const servers = await Promise.all(
    Array.from({ length: options.instances }, () => startServer(serverEnv(sandbox, options.store), [], bearerFor(options.store))),
  );
  const outcomes: ToolOutcome[] = [];
  const burst: ToolOutcome[] = [];
  const call = async (server: RunningServer, also?: ToolOutcome[]): Promise<void> => {
    const outcome = await callTool(server, "get_athlete");
    outcomes.push(outcome);
    also?.push(outcome);
  };
  const exercise = async (): Promise<void> => {
    for (const server of servers) await call(server); // the first refreshes, the others take its token on
    sandbox.resetCounters();
    for (let round = 0; round < options.forcedRounds; round++) {
      sandbox.expireAccessTokens();
      await Promise.all(servers.flatMap((server) => Array.from({ length: options.burstPerInstance }, () => call(server, burst))));
    }
    const until = performance.now() + options.naturalMs;
    await Promise.all(
      servers.map(async (server) => {
        while (performance.now() < until) {
          await Promise.all(Array.from({ length: 4 }, () => call(server)));
          await delay(40);
        }
      }),
    );
  };
  const exercised = await exercise().then(
    () => undefined,
    (error: unknown) => error,
  );
  const exits = await Promise.all(servers.map((server) => server.child.stop()));
  if (exercised !== undefined) throw exercised;
  const counters = sandbox.counters();
  const failedOutcomes = outcomes.filter((outcome) => !outcome.ok);
  return {
    store: options.store.kind,
    instances: options.instances,
    calls: outcomes.length,
    failed: failedOutcomes.length,
    burstCalls: burst.length,
    burstFailed: burst.filter((outcome) => !outcome.ok).length,
    failures: [...new Set(failedOutcomes.map((outcome) => outcome.text))].slice(0, 5),
    forcedExpiries: options.forcedRounds,
    refreshes: counters.tokenRequests - counters.refreshTokenRejections,
    tokenRequests: counters.tokenRequests,
    refusedTokenRequests: counters.refreshTokenRejections,
    storeHoldsLiveToken: sandbox.acceptsRefreshToken(await options.storedRefreshToken()),
    cleanExits: exits.filter((code) => code === 0).length,
  };
}
