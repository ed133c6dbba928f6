/**
 * The sandbox a host config already gives the coach, and what a setup run does with it: an explicit
 * --sandbox sets that choice (replacing a different block), a run without one keeps the config's choice,
 * and only a config without a block gets the default (Docker). The report is then built from the
 * config as written, so what it says is what the file holds.
 */
import { getPath, isJsonObject, jsonEqual, type JsonObject, type JsonValue } from "./json-tree.ts";
import { sandboxBlock, type SandboxChoice } from "./sandbox-choice.ts";

/** The agent's `sandbox` block, read as one of the setup's choices when it is one. */
export type ConfiguredSandbox =
  | { kind: "none" }
  | { kind: "choice"; choice: SandboxChoice; block: JsonObject }
  /** A form this setup does not write (mode "non-main", another backend, no mode): kept, never guessed at. */
  | { kind: "other"; block: JsonValue };

/** What the run does to the block: add one where there is none, keep the one there, or replace it. */
export type SandboxAction = "add" | "keep" | "replace";

export interface SandboxPlan {
  action: SandboxAction;
  /** The choice the config holds after the run; absent when an unrecognised block is kept. */
  choice?: SandboxChoice;
  /** Whether --sandbox chose it (else it is the config's own, or the default for a config without one). */
  explicit: boolean;
  /** The block that was there before (absent when there was none). */
  previous?: JsonValue;
}

export function sandboxPath(agentId: string): string[] {
  return ["agents", "entries", agentId, "sandbox"];
}

export function configuredSandbox(config: JsonObject, agentId: string): ConfiguredSandbox {
  const block = getPath(config, sandboxPath(agentId));
  if (block === undefined) return { kind: "none" };
  if (!isJsonObject(block)) return { kind: "other", block };
  if (block["mode"] === "off") return { kind: "choice", choice: { kind: "off" }, block };
  if (block["mode"] !== "all") return { kind: "other", block };
  const backend = block["backend"];
  if (backend === undefined || backend === "docker") return { kind: "choice", choice: { kind: "docker" }, block };
  const ssh = block["ssh"];
  if (backend !== "ssh" || !isJsonObject(ssh) || typeof ssh["target"] !== "string") return { kind: "other", block };
  const text = (key: string): string | undefined => (typeof ssh[key] === "string" ? ssh[key] : undefined);
  const identityFile = text("identityFile");
  const knownHostsFile = text("knownHostsFile");
  const workspaceRoot = text("workspaceRoot");
  const choice: SandboxChoice = {
    kind: "ssh",
    target: ssh["target"],
    ...(identityFile ? { identityFile } : {}),
    ...(knownHostsFile ? { knownHostsFile } : {}),
    ...(workspaceRoot ? { workspaceRoot } : {}),
  };
  return { kind: "choice", choice, block };
}

/**
 * What a run does with the coach's sandbox. `explicit` is the --sandbox choice, if any. An explicit
 * choice the block already says (the same kind, and every key the choice sets has that value) keeps the
 * block whole, with any settings the operator added.
 */
export function planSandbox(explicit: SandboxChoice | undefined, configured: ConfiguredSandbox): SandboxPlan {
  if (configured.kind === "none") return { action: "add", choice: explicit ?? { kind: "docker" }, explicit: explicit !== undefined };
  if (explicit === undefined) {
    return configured.kind === "choice"
      ? { action: "keep", choice: configured.choice, explicit: false, previous: configured.block }
      : { action: "keep", explicit: false, previous: configured.block };
  }
  // Same kind first: a Docker block's keys are all in an SSH block too.
  const says =
    configured.kind === "choice" && configured.choice.kind === explicit.kind && includes(configured.block, sandboxBlock(explicit));
  return { action: says ? "keep" : "replace", choice: explicit, explicit: true, previous: configured.block };
}

/** Whether every key of `part` is in `whole` with the same value (objects compared key by key). */
function includes(whole: JsonValue | undefined, part: JsonValue): boolean {
  if (isJsonObject(part)) return isJsonObject(whole) && Object.entries(part).every(([key, value]) => includes(whole[key], value));
  return jsonEqual(whole, part);
}
