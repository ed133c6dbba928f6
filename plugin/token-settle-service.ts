/**
 * The plugin's part in the gateway's shutdown: a host service whose `stop` waits for a Strava token
 * refresh in progress and its save to the secret (at most the token manager's settle bound, 40 s with the
 * defaults), so stopping the gateway mid-refresh does not lose the rotated refresh token; and whose `start`
 * saves the tokens a gateway stopped harder than that left in the rescue directory. Hosts without
 * `registerService` (older than the plugin API's services) simply do not wait, and save those at the first call.
 */
import type { PluginApi } from "./host-api.ts";
import type { LazyToolDeps } from "./plugin-tool-deps.ts";

export const tokenSettleServiceId = "fitness-token-settle";

export function registerTokenSettleService(api: PluginApi, deps: LazyToolDeps): void {
  api.registerService?.({
    id: tokenSettleServiceId,
    // Started again after a stop (a restart of the service): refreshes are allowed again. Tokens a stopped
    // gateway left in the rescue directory are saved now, in the background: the gateway does not wait.
    start: () => {
      deps.resume();
      void deps.finishRescuedTokens();
    },
    stop: () => deps.settle(),
  });
}
