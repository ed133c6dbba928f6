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
  /** The spec's error flag; `POST /tools/invoke` passes it through to callers unchanged. */
  isError?: true;
}

export interface HostTool {
  name: string;
  label: string;
  description: string;
  /** JSON Schema of the arguments (TypeBox objects are plain JSON Schema at runtime). */
  parameters: object;
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

export interface PluginApi {
  readonly pluginConfig?: unknown;
  readonly logger: HostLogger;
  registerTool(tool: HostTool, options?: HostToolOptions): void;
  /** Present in hosts with plugin services (openclaw 2026.9 has it). */
  registerService?(service: HostService): void;
}
