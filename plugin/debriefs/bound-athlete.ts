/**
 * Who may turn the debriefs off and on: the bound athlete, and no one else. The host tells a tool factory who
 * is speaking (`requesterSenderId`, from the inbound message; absent in heartbeat, scheduled and internal
 * turns), on which channel and account, and for which agent; the plugin checks those against the host's
 * own config snapshot for the turn: the agent must be the debrief agent, a binding must route that channel
 * account to it, and the account's allowlist (`allowFrom`, which `setup:coach --telegram-user-id` writes)
 * must name the sender. A wildcard admits anyone and so names no athlete. A debrief wake (no sender), another
 * agent, or anyone else in a group gets no switch at all.
 */
import type { HostToolContext } from "../host-api.ts";

export type AthleteCheck = { ok: true; channel: string; sender: string } | { ok: false; reason: string };

export function checkBoundAthlete(context: HostToolContext, agentId: string): AthleteCheck {
  if (context.agentId !== agentId) return { ok: false, reason: `the turn is agent ${context.agentId ?? "(none)"}'s, not ${agentId}'s` };
  const sender = plainId(context.requesterSenderId);
  const channel = context.messageChannel?.trim().toLowerCase();
  if (!sender || !channel) return { ok: false, reason: "the turn has no sender the host vouches for (a wake or a scheduled run)" };
  const config = asObject(context.runtimeConfig) ?? asObject(context.config);
  if (!config) return { ok: false, reason: "the host gave no config snapshot to check the sender against" };
  const account = context.agentAccountId?.trim() || "default";
  const bound = asArray(config["bindings"]).some((binding) => {
    const entry = asObject(binding);
    const match = asObject(entry?.["match"]);
    if (entry?.["agentId"] !== agentId || !match || String(match["channel"] ?? "").toLowerCase() !== channel) return false;
    const accountId = match["accountId"];
    return accountId === undefined || accountId === "*" || accountId === account;
  });
  if (!bound) return { ok: false, reason: `no binding routes ${channel} account ${account} to ${agentId}` };
  const channelConfig = asObject(asObject(config["channels"])?.[channel]);
  const accountConfig = asObject(asObject(channelConfig?.["accounts"])?.[account]);
  const allowFrom = [...asArray(accountConfig?.["allowFrom"]), ...(account === "default" ? asArray(channelConfig?.["allowFrom"]) : [])];
  const admitted = allowFrom.map((entry) => plainId(typeof entry === "number" ? String(entry) : entry)).filter((id) => id && id !== "*");
  if (!admitted.includes(sender))
    return { ok: false, reason: `the sender is not the athlete ${channel} account ${account} admits by its allowlist` };
  return { ok: true, channel, sender };
}

/** An id without a channel prefix ("telegram:123", "tg:123" and "123" are one sender). */
function plainId(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const id = value.trim().replace(/^[a-z][a-z0-9-]*:/i, "");
  return id === "" ? undefined : id;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
