/**
 * The part of the OpenClaw plugin API this plugin uses, typed here so the package needs no dependency
 * on the `openclaw` package (the host passes the real object to `register`). Shapes follow the host's
 * `OpenClawPluginApi` (openclaw 2026.9): `pluginConfig` already has the manifest's schema defaults
 * applied, and `logger` methods take one message string (`debug` may be absent).
 */

export interface HostLogger {
  debug?: (message: string) => void;
  info: (message: string) => void;
  warn: (message: string) => void;
  error: (message: string) => void;
}

export interface HostToolResult {
  content: Array<{ type: "text"; text: string }>;
  /** Structured data for the host. The host grades a call from `details` (`ok: false` = failed). */
  details: Record<string, unknown>;
  /** The error flag of a failed call; `POST /tools/invoke` passes it through to callers unchanged. */
  isError?: true;
}

export interface HostTool {
  name: string;
  label: string;
  description: string;
  /** JSON Schema of the arguments (TypeBox objects are plain JSON Schema at runtime). */
  parameters: object;
  /**
   * `direct-only` keeps the tool model-visible with its full schema when the host's Tool Search is on
   * (otherwise it is listed in a directory, its description cut, and called through `tool_call`).
   */
  catalogMode?: "direct-only";
  execute(toolCallId: string, params: unknown, signal?: AbortSignal): Promise<HostToolResult>;
}

export interface HostToolOptions {
  /** Optional tools reach a model only when an allow list names the tool or the plugin. */
  optional?: boolean;
}

/** A long-lived part of a plugin: the host calls `start` when the gateway starts and awaits `stop` when it stops. */
export interface HostService {
  id: string;
  start: () => void | Promise<void>;
  stop?: () => void | Promise<void>;
}

/** `before_tool_call`'s event: the tool the model (or a direct invoke) is about to run. */
export interface BeforeToolCallEvent {
  toolName: string;
  params: Record<string, unknown>;
  toolCallId?: string;
}

/** `before_tool_call`'s context (fields the host could not prove are absent). */
export interface ToolHookContext {
  agentId?: string;
  sessionKey?: string;
  /** Aborts when the tool call is cancelled. */
  abortSignal?: AbortSignal;
}

/** What a `before_tool_call` handler may answer; `requireApproval` holds the call for a person's decision. */
export interface BeforeToolCallResult {
  block?: boolean;
  blockReason?: string;
  requireApproval?: {
    /** At most 80 characters. */
    title: string;
    /** At most 512 characters; line breaks are kept. */
    description: string;
    severity?: "info" | "warning" | "critical";
    /** Capped by the host at 600000. */
    timeoutMs?: number;
    allowedDecisions?: Array<"allow-once" | "allow-always" | "deny">;
  };
}

export interface HookOptions {
  /** Tool names the handler is called for. */
  matcher?: readonly string[];
  priority?: number;
}

/**
 * What the host tells a tool factory about the turn it builds tools for (`OpenClawPluginToolContext` in
 * openclaw 2026.9): filled by the host from the inbound message, never from the model's arguments. A field
 * the host could not establish is absent: a heartbeat or scheduled turn has no `requesterSenderId`.
 */
export interface HostToolContext {
  agentId?: string;
  sessionKey?: string;
  /** The channel of the turn ("telegram"). */
  messageChannel?: string;
  /** The channel account the agent answers through ("coach"). */
  agentAccountId?: string;
  /** The sender of the message this turn answers, as the channel identifies them (a Telegram user id). */
  requesterSenderId?: string;
  senderIsOwner?: boolean;
  /** The host's config snapshot for this run (bindings, channel accounts). */
  runtimeConfig?: unknown;
  config?: unknown;
}

/** A tool built per turn from the host's context; no tool (null) keeps it from that turn. */
export type HostToolFactory = (context: HostToolContext) => HostTool | null | undefined;

/** The parts of `api.runtime` this plugin uses (openclaw 2026.9.6). */
export interface PluginRuntime {
  system: {
    /**
     * Queues `text` for the session's next turn; false when the host did not take it (empty, a duplicate of
     * the last event with the same context key, or a session store being replaced).
     */
    enqueueSystemEvent(text: string, options: { agentId: string; sessionKey: string; contextKey?: string }): boolean;
    /** Asks the host for a turn of the session (coalesced, retried while the agent is busy). */
    requestHeartbeat(options: {
      source: "notifications-event";
      intent: "immediate";
      reason: string;
      agentId: string;
      sessionKey: string;
      /** "last": reply in the session's last conversation (its channel, account and chat). */
      heartbeat?: { target: "last" };
    }): void;
  };
  state: {
    /** The host's state directory (OPENCLAW_STATE_DIR, else ~/.openclaw). */
    resolveStateDir(): string;
  };
}

export interface PluginApi {
  readonly pluginConfig?: unknown;
  readonly logger: HostLogger;
  /** Present in hosts with a plugin runtime (openclaw 2026.9 has it); the debriefs need it. */
  readonly runtime?: PluginRuntime;
  /** A tool, or a factory that builds it per turn (then `name` declares it up front; the manifest lists it in contracts.tools). */
  registerTool(tool: HostTool | HostToolFactory, options?: HostToolOptions & { name?: string }): void;
  /** Present in hosts with plugin services (openclaw 2026.9 has it). */
  registerService?(service: HostService): void;
  on(
    hookName: "before_tool_call",
    handler: (
      event: BeforeToolCallEvent,
      context: ToolHookContext,
    ) => Promise<BeforeToolCallResult | undefined> | BeforeToolCallResult | undefined,
    options?: HookOptions,
  ): void;
}
