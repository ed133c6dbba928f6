/**
 * The agent-sized answer parameters through the MCP server over streamable HTTP: the server, built from its
 * environment as `npm start` builds it, runs in the test's process against a sandbox started here, and the
 * MCP SDK's client calls it. The checks are the core's (test/support/agent-sized-answers.ts).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startInProcessMcpFromEnv, type InProcessMcp } from "../support/in-process-mcp.ts";
import { sandboxEnv, scratchDirectory } from "./mcp-child.ts";
import { agentSizedAnswerChecks, upstreamReader, type AnswerContext } from "../support/agent-sized-answers.ts";

const authToken = `answers-${randomBytes(16).toString("hex")}`;
let sandbox: RunningSandbox;
let server: InProcessMcp;
let scratch: ReturnType<typeof scratchDirectory>;
let client: Client;
let context: AnswerContext;

beforeAll(async () => {
  const plenty: [number, number] = [100_000, 100_000];
  sandbox = await startSandbox({ rotateRefreshTokens: false, rateLimits: { overall: plenty, read: plenty } });
  scratch = scratchDirectory();
  server = await startInProcessMcpFromEnv(sandboxEnv(sandbox, { authToken, tokenDirectory: scratch.path }));
  client = new Client({ name: "fitness-answers", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${authToken}` } },
    }),
  );
  context = {
    sandbox,
    upstream: await upstreamReader(sandbox),
    call: async (tool, args) => {
      const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      expect(result.content).toHaveLength(1);
      const item = result.content[0]!;
      if (item.type !== "text") throw new Error(`expected a text item, got ${item.type}`);
      return { text: item.text, isError: result.isError === true };
    },
  };
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  await server?.close();
  await sandbox?.close();
  scratch?.remove();
});

describe("agent-sized answers through /mcp", () => {
  it.each(agentSizedAnswerChecks.map(([name, check]) => [name, check] as const))(
    "%s",
    async (_name, check) => {
      await check(context);
    },
    60_000,
  );
});
