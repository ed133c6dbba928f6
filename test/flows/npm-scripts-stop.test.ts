/**
 * Every npm script that starts a server stops with it: started as a person starts it (`npm start`, `npm run
 * sandbox`, `npm run voice` with a fake Bedrock, `npm run voice:offline`, `npm run hosted`), shown to serve, then
 * SIGTERM to the npm process, as a supervisor or a closing terminal sends it. npm passes it to the script; a
 * script without `exec` would hand it to sh, which dies and leaves the server running as an orphan on its port.
 * So: npm exits 0, every process it had started is gone, and nothing listens on the port any more.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { baseEnv } from "../mcp-adapter/mcp-child.ts";
import { runNpm } from "../support/npm-run.ts";
import { descendants, listening, running } from "../support/process-tree.ts";
import { bedrockFakeEnv, startBedrockFake, type BedrockFake } from "../voice/bedrock-fake.ts";

const authToken = "stop-test-bearer-token-0d9c3e";
const voiceToken = "stop-test-voice-token-6a2f";
let fake: BedrockFake;

beforeAll(async () => {
  fake = await startBedrockFake();
  fake.fallback = { kind: "echo" };
});

afterAll(async () => {
  await fake?.close();
});

async function capture(port: number, token: string): Promise<Record<string, unknown>> {
  const response = await fetch(`http://127.0.0.1:${port}/dev/invoke`, {
    method: "POST",
    headers: { "x-client-token": token, "content-type": "application/json" },
    body: JSON.stringify({ text: "remind me to call Sam tomorrow at 3pm", mode: "reminder" }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

interface Script {
  name: string;
  args: string[];
  env: () => Record<string, string>;
  /** Printed once it serves; its first group is the port. */
  ready: RegExp;
  /** One request that shows it serves. */
  serves: (port: number) => Promise<void>;
  /** What it prints for the person who started it (standard output and error together). */
  says?: (output: string) => void;
}

const scripts: Script[] = [
  {
    name: "npm start",
    args: ["start"],
    env: () => baseEnv({ PORT: "0", AUTH_TOKEN: authToken }),
    ready: /"port":(\d+)[^\n]*"event":"listening"/,
    serves: async (port) => {
      const health = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${authToken}` } });
      expect(await health.json()).toMatchObject({ status: "ok", upstream: "sandbox" });
    },
  },
  {
    name: "npm run sandbox",
    args: ["run", "sandbox"],
    env: () => baseEnv({ PORT: "0" }),
    ready: /Strava sandbox listening on http:\/\/127\.0\.0\.1:(\d+)/,
    serves: async (port) => {
      expect((await fetch(`http://127.0.0.1:${port}/_sandbox/credentials`)).status).toBe(200);
    },
  },
  {
    name: "npm run voice",
    args: ["run", "voice"],
    env: () =>
      baseEnv({
        ...bedrockFakeEnv(fake),
        VOICE_LOCAL_PORT: "0",
        VOICE_LOCAL_CLIENT_TOKEN: voiceToken,
        VOICE_MODEL_ID: "us.anthropic.claude-sonnet-4-20250514-v1:0",
      }),
    ready: /POST http:\/\/127\.0\.0\.1:(\d+)\/dev\/invoke/,
    serves: async (port) => {
      expect(await capture(port, voiceToken)).toMatchObject({ action: "reminder", title: "remind me to call Sam tomorrow at 3pm" });
    },
    // Which variable holds the token, in words; never its value.
    says: (output) => {
      expect(output).toContain("client token (send it as X-Client-Token): the one you set in VOICE_LOCAL_CLIENT_TOKEN (not shown here)");
      expect(output).not.toContain(voiceToken);
    },
  },
  {
    name: "npm run voice:offline",
    args: ["run", "voice:offline"],
    env: () => baseEnv({ VOICE_LOCAL_PORT: "0" }),
    ready: /POST http:\/\/127\.0\.0\.1:(\d+)\/dev\/invoke/,
    serves: async (port) => {
      // The dates come from the text (the handler's own reading), whatever the fake model said.
      expect(await capture(port, "offline-demo-token")).toMatchObject({ action: "reminder", dueISO: expect.stringMatching(/T15:00:00Z$/) });
    },
    // The demo's fixed token is no secret: shown, so the printed curl line can be checked against it.
    says: (output) => {
      expect(output).toContain("client token (send it as X-Client-Token): offline-demo-token (this demo's own, fixed: no secret)");
      expect(output).not.toMatch(/token: VOICE_LOCAL_CLIENT_TOKEN/);
    },
  },
  {
    name: "npm run hosted",
    args: ["run", "hosted"],
    env: () => baseEnv({ PORT: "0" }),
    ready: /"url":"http:\/\/127\.0\.0\.1:(\d+)"[^\n]*"event":"local_function_url"/,
    serves: async (port) => {
      expect(await (await fetch(`http://127.0.0.1:${port}/health`)).json()).toMatchObject({ status: "ok", upstream: "sandbox" });
    },
  },
];

describe("an npm script that starts a server stops with it", () => {
  test.each(scripts)("$name: SIGTERM to npm leaves no process of it and a free port", { timeout: 60_000 }, async (script) => {
    const run = runNpm(script.args, script.env());
    let tree: number[] = [];
    try {
      const port = Number((await run.waitFor(script.ready))[1]);
      expect(port).toBeGreaterThan(0);
      await script.serves(port);
      script.says?.(run.stdout() + run.stderr());
      tree = descendants(run.process.pid!);
      expect(tree.length).toBeGreaterThan(0);

      expect(await run.stop("SIGTERM")).toBe(0);
      expect(tree.map((pid) => ({ pid, ...running(pid) })).filter((process) => process.running)).toEqual([]);
      expect(await listening(port)).toBe(false);
    } finally {
      // An orphan left by a failure must not outlive the test run.
      for (const pid of tree) {
        try {
          if (running(pid).running) process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      await run.stop("SIGKILL");
    }
  });
});
