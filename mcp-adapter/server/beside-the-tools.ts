/**
 * What the MCP server offers beside its tools, installed on each fresh `Server` the factory makes:
 *
 * - resources: the two MCP Apps views (apps/app-views.ts) and the coaching skill's files;
 * - the prompt `fitness-coaching` and the Skills extension's `skills/list` and `skills/get`
 *   (skills-over-mcp/coaching-skill.ts);
 * - in tools/list, each view named on its tool (`_meta.ui`).
 *
 * Served on the low-level `Server` the factory already builds (readable-protocol-errors.ts) rather than
 * through the SDK's `McpServer`, whose helpers the Skills extension's `attach` and ext-apps' `registerApp*`
 * take: `McpServer` makes its own plain `Server`, so the readable protocol errors would go, and its tools
 * want Standard Schema objects where ours are TypeBox's JSON Schema, served as they are. What those helpers
 * do here is small (a capability, four methods, two `_meta` keys) and uses the SDK's own entry builder
 * (`skillEntry`), schemas and constants.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type CacheHint,
  type Server,
  type Tool,
} from "@modelcontextprotocol/server";
import {
  GetSkillRequestParamsSchema,
  ListSkillsRequestParamsSchema,
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from "@modelcontextprotocol/core/ext/skills";
import { appViewResources, readAppView, withAppViews } from "../apps/app-views.ts";
import type { CoachingSkill } from "../skills-over-mcp/coaching-skill.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

/** The first protocol revision whose results carry cache fields (`ttlMs`, `cacheScope`). */
const firstRevisionWithCacheFields = "2026-07-28";

export interface BesideTheTools {
  /** tools/list's tools, each with its view named when its definition names one. */
  listing(catalog: ToolCatalog): Tool[];
  /** Declares and serves the resources, the prompt and the Skills extension on `server` (before it connects). */
  install(server: Server): void;
}

export function besideTheTools(options: { toolNames: readonly string[]; cacheHint: CacheHint }): BesideTheTools {
  // Made on first use, in a module loaded then: a YAML parser and the SDK's skill code are not what a stdio
  // client should wait for at start-up.
  let loading: Promise<CoachingSkill> | undefined;
  const coaching = (): Promise<CoachingSkill> =>
    (loading ??= import("../skills-over-mcp/coaching-skill.ts").then(({ coachingSkill }) => coachingSkill(options.toolNames)));
  const cacheFields = (server: Server): CacheHint =>
    (server.getNegotiatedProtocolVersion() ?? "") >= firstRevisionWithCacheFields
      ? { ttlMs: 0, cacheScope: "private", ...options.cacheHint }
      : {};

  return {
    listing: withAppViews,
    install(server) {
      server.registerCapabilities({
        resources: { listChanged: false },
        prompts: { listChanged: false },
        extensions: { [SKILLS_EXTENSION_ID]: {} },
      });
      server.setRequestHandler("resources/list", async () => ({ resources: [...appViewResources, ...(await coaching()).resources] }));
      server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: [] }));
      server.setRequestHandler("resources/read", async (request) => {
        const { uri } = request.params;
        const result = (await coaching()).read(uri) ?? (await readAppView(uri));
        if (result === undefined) throw new ResourceNotFoundError(uri);
        return result;
      });
      server.setRequestHandler("prompts/list", async () => ({ prompts: [(await coaching()).prompt] }));
      server.setRequestHandler("prompts/get", async (request) => {
        const skill = await coaching();
        if (request.params.name !== skill.prompt.name) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `Unknown prompt "${request.params.name}". Available prompts: ${skill.prompt.name}.`,
          );
        }
        return skill.getPrompt(request.params.arguments);
      });
      server.setRequestHandler(SKILLS_LIST_METHOD, { params: ListSkillsRequestParamsSchema }, async (params) => {
        // One skill, one page: a cursor can only be one this server never gave.
        if (params.cursor !== undefined)
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown cursor "${params.cursor}": skills/list has one page.`);
        return { skills: [await (await coaching()).entry()], ...cacheFields(server) };
      });
      server.setRequestHandler(SKILLS_GET_METHOD, { params: GetSkillRequestParamsSchema }, async (params) => {
        const entry = await (await coaching()).entry();
        if (params.uri !== entry.uri)
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${params.uri}; this server serves ${entry.uri}.`);
        return { skill: entry, ...cacheFields(server) };
      });
    },
  };
}
