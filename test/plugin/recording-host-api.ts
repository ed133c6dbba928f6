/**
 * A stand-in for the OpenClaw host's plugin API (the object the host passes to `register`) that
 * records what the plugin registers and logs. It is our test double of the host API; the real host is
 * exercised by `npm run test:host`.
 */
import type {
  BeforeToolCallEvent,
  BeforeToolCallResult,
  HookOptions,
  HostService,
  HostTool,
  HostToolOptions,
  HostToolFactory,
  HostToolResult,
  PluginApi,
  PluginRuntime,
  ToolHookContext,
} from "../../plugin/host-api.ts";
import plugin from "../../index.ts";

export interface RecordedTool {
  tool: HostTool;
  options: HostToolOptions | undefined;
}

export interface RecordedHook {
  hookName: string;
  handler: (
    event: BeforeToolCallEvent,
    context: ToolHookContext,
  ) => Promise<BeforeToolCallResult | undefined> | BeforeToolCallResult | undefined;
  options: HookOptions | undefined;
}

export interface RecordingHost {
  api: PluginApi;
  tools: Map<string, RecordedTool>;
  /** Tools registered as factories (built per turn from the host's context), by their declared name. */
  factories: Map<string, { factory: HostToolFactory; options: HostToolOptions | undefined }>;
  /** Services the plugin registered, by id (the gateway starts them and awaits `stop` when it stops). */
  services: Map<string, HostService>;
  hooks: RecordedHook[];
  logs: Array<{ level: "debug" | "info" | "warn" | "error"; message: string }>;
  /** Calls a registered tool's execute as the host's direct invoke path does (no schema validation). */
  invoke(name: string, args?: unknown, signal?: AbortSignal): Promise<HostToolResult>;
}

/** `runtime`: the plugin runtime to hand the plugin (the debriefs need one); absent as in a host without it. */
export function recordingHost(pluginConfig?: unknown, runtime?: PluginRuntime): RecordingHost {
  const tools = new Map<string, RecordedTool>();
  const factories: RecordingHost["factories"] = new Map();
  const services = new Map<string, HostService>();
  const hooks: RecordedHook[] = [];
  const logs: RecordingHost["logs"] = [];
  const api: PluginApi = {
    pluginConfig,
    logger: {
      debug: (message) => logs.push({ level: "debug", message }),
      info: (message) => logs.push({ level: "info", message }),
      warn: (message) => logs.push({ level: "warn", message }),
      error: (message) => logs.push({ level: "error", message }),
    },
    ...(runtime ? { runtime } : {}),
    registerTool(tool, options) {
      if (typeof tool === "function") {
        const name = options?.name;
        if (!name) throw new Error("a tool factory registered without a name");
        if (factories.has(name) || tools.has(name)) throw new Error(`tool ${name} registered twice`);
        factories.set(name, { factory: tool, options });
        return;
      }
      if (tools.has(tool.name) || factories.has(tool.name)) throw new Error(`tool ${tool.name} registered twice`);
      tools.set(tool.name, { tool, options });
    },
    registerService(service) {
      if (services.has(service.id)) throw new Error(`service ${service.id} registered twice`);
      services.set(service.id, service);
    },
    on(hookName, handler, options) {
      hooks.push({ hookName, handler, options });
    },
  };
  let counter = 0;
  return {
    api,
    tools,
    factories,
    services,
    hooks,
    logs,
    invoke(name, args = {}, signal) {
      const recorded = tools.get(name);
      if (!recorded) throw new Error(`no tool named ${name} was registered`);
      counter += 1;
      return recorded.tool.execute(`test-call-${counter}`, args, signal);
    },
  };
}

/** Registers the plugin (its default export, as the host loads it) against a recording host. */
export function registerPlugin(pluginConfig?: unknown, runtime?: PluginRuntime): RecordingHost {
  const host = recordingHost(pluginConfig, runtime);
  plugin.register(host.api);
  return host;
}

export function textOf(result: HostToolResult): string {
  const [item] = result.content;
  if (!item) throw new Error("tool result without content");
  return item.text;
}
