/**
 * The MCP server over stdio, end to end: once with the SDK's StdioClientTransport against a counted sandbox,
 * once through the documented command (`npm start --silent -- --stdio`) with no credentials at all, so
 * the embedded sandbox serves it, reading raw standard output to prove it carries protocol only; and
 * shutdown: a call in flight when standard input closes, or when SIGTERM arrives, is still answered.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { JSONRPCMessageSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { toolTable } from "../../tools/table.ts";
import { baseEnv, repositoryRoot, sandboxAsStravaEnv, scratchDirectory, spawnMcpChild, type McpChild } from "./mcp-child.ts";

function textOf(result: CallToolResult): string {
  const item = result.content[0];
  if (item?.type !== "text") throw new Error("expected one text item");
  return item.text;
}

describe("the MCP server over stdio with the SDK client", () => {
  let sandbox: RunningSandbox;
  let scratch: ReturnType<typeof scratchDirectory>;
  let client: Client;
  let transport: StdioClientTransport;
  const stderr: string[] = [];
  const authToken = `stdio-${randomBytes(12).toString("hex")}`;

  beforeAll(async () => {
    sandbox = await startSandbox({ uploadProcessingMs: 50 });
    scratch = scratchDirectory();
    transport = new StdioClientTransport({
      command: process.execPath,
      // What npm start runs, so the launcher is held to stdout purity too.
      args: ["mcp-adapter/start.mjs", "--stdio"],
      cwd: repositoryRoot,
      env: baseEnv({
        // Set to prove stdio mode neither needs nor prints it.
        AUTH_TOKEN: authToken,
        ...sandboxAsStravaEnv(sandbox, join(scratch.path, "tokens.json")),
      }),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    client = new Client({ name: "fitness-stdio-e2e", version: "1.0.0" });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close().catch(() => {});
    await sandbox?.close();
    scratch?.remove();
  });

  test("lists the 11 tools and calls them through the upstream", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolTable.map((tool) => tool.name));
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(Array.isArray(tool.inputSchema.required)).toBe(true);
    }
    const athlete = (await client.callTool({ name: "get_athlete", arguments: {} })) as CallToolResult;
    expect(athlete.isError).toBeUndefined();
    expect(JSON.parse(textOf(athlete))).toMatchObject({ id: sandbox.athleteId });
    const listed = JSON.parse(
      textOf((await client.callTool({ name: "get_activities", arguments: { per_page: 3 } })) as CallToolResult),
    ) as { id: number }[];
    expect(listed).toHaveLength(3);
    const detail = JSON.parse(
      textOf((await client.callTool({ name: "get_activity_by_id", arguments: { id: listed[0]!.id } })) as CallToolResult),
    ) as {
      id: number;
    };
    expect(detail.id).toBe(listed[0]!.id);
  });

  test("errors are tool results: bad arguments (nothing sent upstream) and an upstream 404", async () => {
    const before = sandbox.counters().requests;
    const bad = (await client.callTool({ name: "get_activity_streams", arguments: { id: 5, keys: ["pulse"] } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Error: .*keys/);
    expect(sandbox.counters().requests).toBe(before);
    const missing = (await client.callTool({ name: "get_upload", arguments: { id: 424242 } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^Error: .*404/);
  });

  test("standard error holds JSON log lines without secrets", () => {
    const lines = stderr.join("").split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const text = lines.join("\n");
    expect(text).not.toContain(authToken);
    expect(text).not.toContain(sandbox.clientSecret);
    expect(text).not.toContain(sandbox.refreshToken());
    expect(text).not.toContain("auth_token_generated");
  });
});

describe("npm start --silent -- --stdio without credentials: the embedded sandbox", () => {
  test("standard output carries only JSON-RPC messages, the sandbox is announced, closing stdin exits 0", async () => {
    const child = spawnMcpChild({ env: baseEnv({}), args: ["--stdio"], stdin: "pipe", viaNpm: true });
    try {
      const requests = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_athlete", arguments: {} } },
        { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "get_activities", arguments: { per_page: 2 } } },
        { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "get_activity_by_id", arguments: {} } },
      ];
      for (const request of requests) child.process.stdin!.write(`${JSON.stringify(request)}\n`);
      const answered = async (): Promise<void> => {
        for (let waited = 0; waited < 60_000; waited += 100) {
          const ids = child
            .stdout()
            .split("\n")
            .filter(Boolean)
            .map((line) => (JSON.parse(line) as { id?: number }).id);
          if ([1, 2, 3, 4, 5].every((id) => ids.includes(id))) return;
          if (child.process.exitCode !== null) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`not every request was answered; stdout:\n${child.stdout()}\nstderr:\n${child.stderrLines.join("\n")}`);
      };
      await answered();
      child.process.stdin!.end();
      expect(await child.exited).toBe(0);

      const lines = child.stdout().split("\n");
      expect(lines.pop()).toBe(""); // every message ends with a newline
      const messages = lines.map(
        (line) => JSONRPCMessageSchema.parse(JSON.parse(line)) as { id?: number; result?: Record<string, unknown> },
      );
      const byId = new Map(messages.map((message) => [message.id, message.result]));
      expect((byId.get(2)!["tools"] as unknown[]).length).toBe(11);
      const athlete = JSON.parse(textOf(byId.get(3) as unknown as CallToolResult)) as { firstname: string };
      expect(athlete.firstname).toBeTypeOf("string");
      expect(JSON.parse(textOf(byId.get(4) as unknown as CallToolResult))).toHaveLength(2);
      expect(byId.get(5)!["isError"]).toBe(true);

      const sandboxNotice = child.stderrLines.find((line) => line.includes('"event":"upstream_sandbox"'));
      expect(sandboxNotice).toContain("SANDBOX");
      expect(child.stderrLines.some((line) => line.includes('"upstream":"sandbox"'))).toBe(true);
    } finally {
      await child.stop();
    }
  });
});

describe("stdio shutdown: calls in flight are answered, then exit 0", () => {
  let sandbox: RunningSandbox;
  let scratch: ReturnType<typeof scratchDirectory>;

  beforeAll(async () => {
    sandbox = await startSandbox({ uploadProcessingMs: 50 });
    scratch = scratchDirectory();
  });
  afterAll(async () => {
    await sandbox?.close();
    scratch?.remove();
  });

  /** A server on the counted sandbox whose GET /activities/{id} answers only after `delayMs`. */
  async function slowCallUnderWay(delayMs: number): Promise<{ child: McpChild; id: number }> {
    const child = spawnMcpChild({
      args: ["--stdio"],
      stdin: "pipe",
      env: baseEnv(sandboxAsStravaEnv(sandbox, join(scratch.path, `tokens-${delayMs}.json`))),
    });
    await child.waitForEvent("listening");
    const send = (message: unknown): boolean => child.process.stdin!.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_activities", arguments: { per_page: 1 } } });
    const listed = await answerTo(child, 2);
    const id = (JSON.parse(textOf(listed as CallToolResult)) as { id: number }[])[0]!.id;
    sandbox.injectFault({ match: `GET /activities/${id}`, kind: "delay", delayMs });
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_activity_by_id", arguments: { id } } });
    return { child, id };
  }

  async function answerTo(child: McpChild, id: number, timeoutMs = 15_000): Promise<Record<string, unknown>> {
    for (let waited = 0; waited < timeoutMs; waited += 50) {
      for (const line of child.stdout().split("\n").filter(Boolean)) {
        const message = JSON.parse(line) as { id?: number; result?: Record<string, unknown> };
        if (message.id === id && message.result) return message.result;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no answer to ${id}; stdout:\n${child.stdout()}\nstderr:\n${child.stderrLines.join("\n")}`);
  }

  test("standard input closes while a call waits on the upstream: the call is answered, then the server exits 0", async () => {
    const { child, id } = await slowCallUnderWay(1_500);
    // Give the call time to reach the upstream, then hang up the way a client does.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.process.stdin!.end();
    expect(await child.exited).toBe(0);
    const answer = await answerTo(child, 3, 1_000);
    expect(answer["isError"]).toBeUndefined();
    expect((JSON.parse(textOf(answer as unknown as CallToolResult)) as { id: number }).id).toBe(id);
    const stopping = child.stderrLines.find((line) => line.includes('"event":"stopping"'));
    expect(stopping).toContain('"reason":"stdin closed"');
    expect(stopping).toContain('"calls_in_flight":1');
  });

  test("SIGTERM while a call waits on the upstream: the call is answered, then the server exits 0", async () => {
    const { child, id } = await slowCallUnderWay(1_200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.process.kill("SIGTERM");
    expect(await child.exited).toBe(0);
    const answer = await answerTo(child, 3, 1_000);
    expect((JSON.parse(textOf(answer as unknown as CallToolResult)) as { id: number }).id).toBe(id);
    expect(child.stderrLines.some((line) => line.includes('"event":"stopped"'))).toBe(true);
  });
});

describe("stdio: a line that is not one message is answered, and reading goes on", () => {
  test("not JSON, a batch, non-messages and a line over the limit each get a JSON-RPC error; the next request is served; closing stdin exits 0", async () => {
    const child = spawnMcpChild({ env: baseEnv({}), args: ["--stdio"], stdin: "pipe" });
    try {
      await child.waitForEvent("listening");
      const stdin = child.process.stdin!;
      const line = (text: string): Promise<void> =>
        new Promise((resolve, reject) => stdin.write(`${text}\n`, (error) => (error ? reject(error) : resolve())));
      await line(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        }),
      );
      await line(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      await line("garbage, not json");
      await line(
        JSON.stringify([
          { jsonrpc: "2.0", id: 3, method: "ping" },
          { jsonrpc: "2.0", id: 4, method: "ping" },
        ]),
      );
      await line(JSON.stringify({ id: 5, method: "ping" }));
      // JSON-RPC in shape, refused by the protocol's schema: an extra member, an object id, params not an object, a result without id.
      await line(JSON.stringify({ jsonrpc: "2.0", id: 51, method: "ping", extra: 1 }));
      await line(JSON.stringify({ jsonrpc: "2.0", id: { x: 1 }, method: "ping" }));
      await line(JSON.stringify({ jsonrpc: "2.0", id: 53, method: "tools/call", params: "str" }));
      await line(JSON.stringify({ jsonrpc: "2.0", result: {} }));
      // 41 MiB in one line, above the 40 MiB every transport reads; written in pieces, as a pipe delivers it.
      const piece = "a".repeat(1024 * 1024);
      stdin.write('{"jsonrpc":"2.0","id":6,"method":"ping","params":{"_pad":"');
      for (let i = 0; i < 41; i++)
        await new Promise<void>((resolve) => (stdin.write(piece) ? resolve() : stdin.once("drain", () => resolve())));
      await line('"}}');
      await line(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }));

      const messages = async (): Promise<{ id?: unknown; result?: unknown; error?: { code: number; message: string } }[]> => {
        for (let waited = 0; waited < 60_000; waited += 100) {
          const parsed = child
            .stdout()
            .split("\n")
            .filter(Boolean)
            .map((text) => JSON.parse(text) as { id?: unknown; result?: unknown; error?: { code: number; message: string } });
          if (parsed.some((message) => message.id === 7)) return parsed;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`request 7 was not answered; stdout:\n${child.stdout().slice(0, 4000)}\nstderr:\n${child.stderrLines.join("\n")}`);
      };
      const answered = await messages();
      const errors = answered
        .filter((message) => message.error)
        .map((message) => [message.id, message.error!.code, message.error!.message.split(":")[0]]);
      expect(errors).toEqual([
        [null, -32700, "Parse error"],
        [null, -32600, "Invalid Request"],
        [5, -32600, "Invalid Request"],
        [51, -32600, "Invalid Request"],
        [null, -32600, "Invalid Request"],
        [53, -32600, "Invalid Request"],
        [null, -32600, "Invalid Request"],
        [null, -32600, "Invalid Request"],
      ]);
      expect(answered.find((message) => message.id === 7)).toMatchObject({ result: {} });
      expect(answered.some((message) => message.id === 6 || message.id === 3 || message.id === 4)).toBe(false);
      const refusedLines = child.stderrLines.filter((text) => text.includes('"event":"mcp_stdio_refused"'));
      expect(refusedLines).toHaveLength(8);
      // The JSON-RPC code says what was wrong; it is no secret, so it is not redacted.
      expect(refusedLines.filter((line) => line.includes('"code":-32700'))).toHaveLength(1);
      expect(child.stderrLines.filter((text) => text.includes('"event":"mcp_stdio_error"'))).toEqual([]);
      stdin.end();
      expect(await child.exited).toBe(0);
    } finally {
      await child.stop();
    }
  }, 90_000);
});
