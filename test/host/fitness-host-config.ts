/**
 * Host config that enables the fitness plugin the way an operator does: allowed, enabled, pointed at
 * the credentials secret; plus two agents to check tool policy with (`fitness-check` allows the plugin,
 * `no-fitness` allows only `read`). Other check modules can start from it and add their own parts.
 */
import type { HostContext } from "./host-context.ts";
import type { HostServices } from "./host-services.ts";

export const checkAgents = { allowed: "fitness-check", denied: "no-fitness" } as const;

export function fitnessHostConfig(
  context: HostContext,
  services: HostServices,
  options: { loadPaths?: string[] } = {},
): Record<string, unknown> {
  const base = context.baseConfig();
  return {
    ...base,
    plugins: {
      allow: ["fitness"],
      // No memory plugin: the fitness checks do not need one, and memory-core's startup work (its
      // "dreaming" job) adds half a minute to every gateway start.
      slots: { memory: "none" },
      ...(options.loadPaths ? { load: { paths: options.loadPaths } } : {}),
      entries: {
        fitness: { enabled: true, config: { secretName: services.secretName, cloudRegion: services.region } },
      },
    },
    agents: {
      ...(base["agents"] as Record<string, unknown>),
      ownership: "explicit",
      entries: {
        [checkAgents.allowed]: { tools: { allow: ["fitness"] } },
        [checkAgents.denied]: { tools: { allow: ["read"] } },
      },
    },
  };
}
