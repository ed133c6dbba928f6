/**
 * /health (mcp-adapter/http/health.ts) tells an operator when no call can succeed: a server built from its
 * environment as `npm start` builds it, here in the test's process, whose stored refresh token Strava (the
 * sandbox) refuses answers 503 `needs_authorization` with what to do, keeping the fields it always had, and
 * logs the dead token as an error; before any call it answers ok.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { startSandbox, type RunningSandbox } from "../../../sandbox/server.ts";
import { capturingLogger } from "../../support/core-harness.ts";
import { startInProcessMcpFromEnv, type InProcessMcp } from "../../support/in-process-mcp.ts";
import { sandboxEnv, scratchDirectory } from "../mcp-child.ts";

const authToken = `health-${randomBytes(12).toString("hex")}`;
let sandbox: RunningSandbox;
let server: InProcessMcp;
let origin: string;
const scratch = scratchDirectory();
const { logger, lines } = capturingLogger();

beforeAll(async () => {
  sandbox = await startSandbox();
  server = await startInProcessMcpFromEnv(
    {
      ...sandboxEnv(sandbox, { authToken, tokenDirectory: scratch.path }),
      STRAVA_REFRESH_TOKEN: "0".repeat(40),
      FITNESS_STORE_TIMEOUT_MS: "500",
    },
    { logger },
  );
  origin = new URL(server.mcpUrl).origin;
});
afterAll(async () => {
  await server?.close();
  await sandbox?.close();
  scratch.remove();
});

async function health(): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${origin}/health`, { headers: { authorization: `Bearer ${authToken}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

it("answers 503 needs_authorization once the stored refresh token is known dead, and logs it", async () => {
  expect(await health()).toMatchObject({ status: 200, body: { status: "ok", upstream: "sandbox", credentials: { state: "unchecked" } } });
  const call = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${authToken}`, accept: "application/json, text/event-stream", "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_athlete", arguments: {} } }),
  });
  const result = ((await call.json()) as { result: { isError: boolean; content: Array<{ text: string }> } }).result;
  expect(result.isError).toBe(true);
  expect(result.content[0]!.text).toContain("authorize again (npm run authorize)");
  const dead = await health();
  expect(dead.status).toBe(503);
  expect(dead.body).toMatchObject({
    status: "needs_authorization",
    name: "openclaw-fitness",
    upstream: "sandbox",
    credentials: { state: "needs_authorization", message: expect.stringContaining("authorize again"), since: expect.any(String) },
  });
  expect(JSON.stringify(dead.body)).not.toContain("0".repeat(40));
  const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line["event"] === "refresh_token_dead");
  expect(logged?.["level"]).toBe("error");
});
