/**
 * The agent-sized answer parameters through the core (runTool) against the sandbox: `fields`,
 * `include_all_efforts`, streams `resolution` and `summary` (the same checks run through /mcp in
 * test/mcp and through the plugin in test/plugin).
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { fileBackedCore, textOf, type FileBackedCore } from "../support/core-harness.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { agentSizedAnswerChecks, upstreamReader, type AnswerContext } from "../support/agent-sized-answers.ts";

let sandbox: RunningSandbox;
let core: FileBackedCore;
let context: AnswerContext;

beforeAll(async () => {
  const plenty: [number, number] = [100_000, 100_000];
  // Refresh tokens do not rotate, so the test can read Strava's own answers with a token of its own.
  sandbox = await startSandbox({ rotateRefreshTokens: false, rateLimits: { overall: plenty, read: plenty } });
  core = await fileBackedCore({
    credentials: { client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() },
    settings: { apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl },
  });
  context = {
    sandbox,
    upstream: await upstreamReader(sandbox),
    call: async (tool, args) => {
      const result = await core.call(tool, args);
      return { text: textOf(result), isError: result.isError === true };
    },
  };
});

afterAll(async () => {
  await core?.cleanup();
  await sandbox?.close();
});

describe("agent-sized answers through the core", () => {
  it.each(agentSizedAnswerChecks.map(([name, check]) => [name, check] as const))(
    "%s",
    async (_name, check) => {
      await check(context);
    },
    30_000,
  );
});
