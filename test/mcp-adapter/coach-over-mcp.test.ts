/**
 * What the server offers beside its tools, end to end: the server runs as a child process (the built bundle,
 * as `npm start` runs it) on a sandbox. The fitness-coaching skill through the Skills extension (the v2 SDK's
 * SkillsClient lists, gets and reads it, digest checked), as the prompt `fitness-coaching` (v2 clients of both
 * protocol eras, the v1 SDK's client, and over stdio), and the resources (the two MCP Apps views, the skill's
 * files: SKILL.md and the files it names). Existing clients keep their tools: the listing is the table's, each tool exactly as before but the
 * two that now name a view in `_meta`, and the whole listing stays within 15% of its size before the
 * training-load summary.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { jsonRpcReply } from "../support/mcp-replies.ts";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { toolTable } from "../../tools/table.ts";
import { buildToolCatalog } from "../../mcp-adapter/server/tool-catalog.ts";
import { skillTextForMcp } from "../../mcp-adapter/skills-over-mcp/skill-text-for-mcp.ts";
import { servedSkillFiles } from "../../mcp-adapter/skills-over-mcp/served-skill-files.mjs";
import { toolTables } from "../../tools/table.ts";
import { athleteRequestLabel } from "../../mcp-adapter/skills-over-mcp/athlete-request.ts";
import { baseEnv, repositoryRoot, sandboxAsStravaEnv, sandboxEnv, scratchDirectory, spawnMcpChild, type McpChild } from "./mcp-child.ts";

const authToken = `coach-${randomBytes(16).toString("hex")}`;
const skillUri = "skill://fitness-coaching/SKILL.md";
const views = { ride: "ui://openclaw-fitness/ride-view.html", load: "ui://openclaw-fitness/load-view.html" };
/** tools/list (the v1 client's answer as JSON) before the training-load issue was 15,279 bytes: at most 15% more. */
const listingBudgetBytes = Math.floor(15_279 * 1.15);
const expectedText = skillTextForMcp(
  Object.fromEntries(
    servedSkillFiles.map(({ path }) => [path, readFileSync(join(repositoryRoot, "skills/fitness-coaching", path), "utf8")]),
  ),
  [...new Set(toolTables.flatMap(([, table]) => table.map((tool) => tool.name)))],
);
/** SKILL.md's URI, then each file it names. */
const skillFileUris = servedSkillFiles.map(({ path }) => `skill://fitness-coaching/${path}`);

let sandbox: RunningSandbox;
let scratch: ReturnType<typeof scratchDirectory>;
let server: McpChild;
let mcpUrl: URL;

beforeAll(async () => {
  sandbox = await startSandbox({ rotateRefreshTokens: false });
  scratch = scratchDirectory();
  server = spawnMcpChild({ env: sandboxEnv(sandbox, { authToken, tokenDirectory: scratch.path }) });
  mcpUrl = new URL(String((await server.waitForEvent("listening"))["url"]));
});

afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
  scratch?.remove();
});

async function v2Client(mode: "auto" | "legacy"): Promise<Client> {
  const client = new Client({ name: `coach-${mode}`, version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${authToken}` } } }));
  return client;
}

async function expectSkillAndPrompt(client: Client): Promise<void> {
  const skills = new SkillsClient(client);
  expect(skills.supported).toBe(true);
  const listing = await skills.list();
  expect(listing.invalid).toEqual([]);
  expect(listing.skills.map((skill) => [skill.uri, skill.frontmatter.name])).toEqual([[skillUri, "fitness-coaching"]]);
  expect((await skills.get(skillUri)).skill).toEqual(listing.skills[0]);
  const file = await skills.read(listing.skills[0]!);
  expect(file.verified).toBe(true);
  expect(file.text).toBe(expectedText.markdown);
  expect(file.text).toContain("`update_activity`");
  expect(file.text).toContain("explicit yes in this chat");
  expect(file.text).not.toMatch(/fitness_[a-z]/);
  // The files SKILL.md names are the skill's too: listed with their digests, and read as resources by their URIs.
  const resources = listing.skills[0]!.resources;
  expect(Array.isArray(resources) ? resources.map((resource) => resource.uri).sort() : resources).toEqual([...skillFileUris].sort());
  for (const path of ["logging.md", "training-load.md"]) {
    expect(file.text).toContain(`\`skill://fitness-coaching/${path}\``);
    const read = await client.readResource({ uri: `skill://fitness-coaching/${path}` });
    expect(read.contents).toEqual([{ uri: `skill://fitness-coaching/${path}`, mimeType: "text/markdown", text: expectedText.files[path] }]);
  }

  const { prompts } = await client.listPrompts();
  expect(prompts).toEqual([
    expect.objectContaining({ name: "fitness-coaching", arguments: [expect.objectContaining({ name: "request", required: false })] }),
  ]);
  const prompt = await client.getPrompt({ name: "fitness-coaching", arguments: { request: "Append to my run: 6x800 m" } });
  const message = prompt.messages[0]?.content;
  expect(message?.type === "text" ? message.text : "").toBe(
    `${expectedText.body}\n\n${athleteRequestLabel}\n\n\`\`\`text\nAppend to my run: 6x800 m\n\`\`\``,
  );
}

describe("the coaching skill over HTTP", () => {
  test("a v2 client negotiating 2026-07-28 lists, gets and reads the skill through the extension, and gets the prompt", async () => {
    const client = await v2Client("auto");
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(client.getServerCapabilities()).toMatchObject({
        extensions: { "io.modelcontextprotocol/skills": {} },
        prompts: {},
        resources: {},
      });
      await expectSkillAndPrompt(client);
    } finally {
      await client.close();
    }
  });

  test("the same client in a 2025-era session gets the same skill and prompt", async () => {
    const client = await v2Client("legacy");
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      await expectSkillAndPrompt(client);
    } finally {
      await client.close();
    }
  });

  test("the v1 SDK's client lists and gets the prompt, and lists the resources", async () => {
    const client = new V1Client({ name: "coach-v1", version: "1.0.0" });
    await client.connect(new V1HttpTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${authToken}` } } }));
    try {
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["fitness-coaching"]);
      const prompt = await client.getPrompt({ name: "fitness-coaching" });
      expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: expectedText.body } }]);
      const { resources } = await client.listResources();
      expect(resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([
        [views.ride, "text/html;profile=mcp-app"],
        [views.load, "text/html;profile=mcp-app"],
        ...skillFileUris.map((uri) => [uri, "text/markdown"]),
      ]);
      const skillFile = await client.readResource({ uri: skillUri });
      expect(skillFile.contents).toEqual([{ uri: skillUri, mimeType: "text/markdown", text: expectedText.markdown }]);
    } finally {
      await client.close();
    }
  });

  test("mistakes read as such: an unknown prompt, an unknown skill, an unknown resource", async () => {
    const client = await v2Client("auto");
    const failure = (promise: Promise<unknown>): Promise<{ code?: number; message: string }> =>
      promise.then(
        () => ({ message: "no error" }),
        (error: unknown) => error as { code?: number; message: string },
      );
    try {
      const prompt = await failure(client.getPrompt({ name: "coaching" }));
      expect(prompt).toMatchObject({ code: -32602 });
      expect(prompt.message).toContain('Unknown prompt "coaching". Available prompts: fitness-coaching.');
      const argument = await failure(client.getPrompt({ name: "fitness-coaching", arguments: { text: "hi" } }));
      expect(argument.message).toContain("takes one optional argument, request");
      const long = await failure(client.getPrompt({ name: "fitness-coaching", arguments: { request: "x".repeat(4_001) } }));
      expect(long).toMatchObject({ code: -32602 });
      expect(long.message).toContain("request is 4,001 characters long; it takes at most 4,000");
      const skill = await failure(new SkillsClient(client).get("skill://other/SKILL.md"));
      expect(skill.message).toContain(`No skill is served at skill://other/SKILL.md; this server serves ${skillUri}.`);
      const resource = await failure(client.readResource({ uri: "ui://openclaw-fitness/nothing.html" }));
      expect(resource.message).toContain("Resource not found: ui://openclaw-fitness/nothing.html");
    } finally {
      await client.close();
    }
  });

  test("a skills/get or skills/list with wrong params says in words what the field must be, not the validator's text", async () => {
    const ask = async (method: string, params: Record<string, unknown>): Promise<string> => {
      const response = await fetch(mcpUrl, {
        method: "POST",
        headers: {
          authorization: `Bearer ${authToken}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      const reply = jsonRpcReply(await response.text());
      expect(reply.error?.code).toBe(-32602);
      return reply.error?.message ?? "";
    };
    expect(await ask("skills/get", {})).toBe(
      "Invalid skills/get request: params.uri must be a string (the uri of a skill from skills/list, such as skill://fitness-coaching/SKILL.md); it is missing.",
    );
    expect(await ask("skills/get", { uri: 5 })).toBe(
      "Invalid skills/get request: params.uri must be a string (the uri of a skill from skills/list, such as skill://fitness-coaching/SKILL.md); got a number.",
    );
    expect(await ask("skills/list", { cursor: 5 })).toBe(
      "Invalid skills/list request: params.cursor must be a string (a nextCursor from an earlier skills/list); got a number.",
    );
  });
});

describe("the tools existing clients see", () => {
  test("the table's tools as before, the two with a view naming it in _meta, within 15% of the size before training load", async () => {
    const client = new V1Client({ name: "coach-tools", version: "1.0.0" });
    await client.connect(new V1HttpTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${authToken}` } } }));
    try {
      const listed = await client.listTools();
      const before = buildToolCatalog(toolTable).tools;
      expect(listed.tools.map(({ _meta, ...tool }) => tool)).toEqual(before);
      expect(Object.fromEntries(listed.tools.filter((tool) => tool._meta).map((tool) => [tool.name, tool._meta]))).toEqual({
        get_activities: { ui: { resourceUri: views.load }, "ui/resourceUri": views.load },
        get_activity_streams: { ui: { resourceUri: views.ride }, "ui/resourceUri": views.ride },
      });
      expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThanOrEqual(listingBudgetBytes);
    } finally {
      await client.close();
    }
  });
});

describe("the coaching skill over stdio", () => {
  test("a v2 client reads the skill and gets the prompt", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["mcp-adapter/start.mjs", "--stdio"],
      cwd: repositoryRoot,
      env: baseEnv(sandboxAsStravaEnv(sandbox, join(scratch.path, "stdio-tokens.json"))),
      stderr: "pipe",
    });
    const client = new Client({ name: "coach-stdio", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(transport);
    try {
      await expectSkillAndPrompt(client);
    } finally {
      await client.close();
    }
  });
});
