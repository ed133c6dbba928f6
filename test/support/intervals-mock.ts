/**
 * intervals.icu faked at the connection layer: undici's MockAgent under the core's real HTTP seam
 * (common/upstream/http-exchange.ts), answering only the requests a test declares; anything else fails as a
 * network error naming the unmatched request. `requests()` counts every request that reached it.
 */
import { MockAgent, type Interceptable } from "undici";

export const intervalsOrigin = "https://intervals.icu";
export const intervalsApiBase = `${intervalsOrigin}/api/v1`;

export interface IntervalsMock {
  agent: MockAgent;
  /** Declare answers on it: `intervals.intercept({ path, method, headers }).reply(status, body)`. */
  intervals: Interceptable;
  requests(): number;
  /** The Authorization header of each request, in order. */
  authorizations(): string[];
  close(): Promise<void>;
}

export function mockIntervals(): IntervalsMock {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const calls = () => agent.getCallHistory()?.calls() ?? [];
  return {
    agent,
    intervals: agent.get(intervalsOrigin),
    requests: () => calls().length,
    authorizations: () => calls().map((call) => String((call.headers as Record<string, string>)["authorization"] ?? "")),
    close: () => agent.close(),
  };
}
