/**
 * Strava faked at the connection layer: undici's MockAgent under the core's real HTTP seam
 * (common/upstream/http-exchange.ts), answering only the requests a test declares; anything else fails as a network
 * error naming the unmatched request. `pending()` lists declared answers nobody asked for, `requests()`
 * counts every request that reached it, answered or not.
 */
import { MockAgent, type Interceptable } from "undici";

export const stravaOrigin = "https://www.strava.com";

export interface StravaMock {
  agent: MockAgent;
  /** Declare answers on it: `strava.intercept({ path, method, query, headers, body }).reply(status, body)`. */
  strava: Interceptable;
  /** Declared answers not used yet (as undici describes them). */
  pending(): string[];
  requests(): number;
  close(): Promise<void>;
}

export function mockStrava(): StravaMock {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  return {
    agent,
    strava: agent.get(stravaOrigin),
    pending: () => agent.pendingInterceptors().map((interceptor) => `${interceptor.method} ${String(interceptor.path)}`),
    requests: () => agent.getCallHistory()?.calls().length ?? 0,
    close: () => agent.close(),
  };
}

/** Matches a path whatever its query string (nock's `.query(true)`). */
export const pathAnyQuery =
  (path: string) =>
  (requested: string): boolean =>
    requested.split("?", 1)[0] === path;
