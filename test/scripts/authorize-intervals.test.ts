/**
 * `npm run authorize:intervals`, the operator's command that keeps the athlete's intervals.icu API key where the
 * plugin reads it: run as a command with the key on standard input (the token file; a Secrets Manager secret on
 * moto_server, created when missing), checked with intervals.icu first (the sandbox's face: a wrong key is refused
 * and nothing stored), other fields kept, `--remove`; the key refused on the command line; the hidden prompt of a
 * terminal. The key appears in no output.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { readSecretLine, type SecretInput } from "../../scripts/authorize/secret-input.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";

let moto: MotoServer;
let sandbox: RunningSandbox;
let directory: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  sandbox = await startSandbox();
  directory = await mkdtemp(join(tmpdir(), "fitness-authorize-icu-"));
});

afterAll(async () => {
  await sandbox?.close();
  await moto?.stop();
  if (directory) await rm(directory, { recursive: true, force: true });
  process.env = savedEnv;
});

/** The command as an operator runs it (`npm run authorize:intervals -- ARGS`), with `input` on standard input. */
async function run(args: string[], input: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/authorize-intervals.ts", ...args], {
    cwd: new URL("../../", import.meta.url),
    env: { ...process.env, INTERVALS_API_BASE: sandbox.intervalsApiBase },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, output };
}

async function secret(name: string): Promise<Record<string, unknown>> {
  const client = new SecretsManagerClient({ region: "us-west-2" });
  try {
    const answer = await client.send(new GetSecretValueCommand({ SecretId: name, VersionStage: "AWSCURRENT" }));
    return JSON.parse(answer.SecretString ?? "null") as Record<string, unknown>;
  } finally {
    client.destroy();
  }
}

describe("npm run authorize:intervals", () => {
  it("reads the key from standard input, checks it with intervals.icu, and writes it into the token file beside its other fields (0600)", async () => {
    const path = join(directory, "tokens.json");
    await writeFile(path, JSON.stringify({ client_id: "1", client_secret: "s", refresh_token: "r", note: "kept" }), { mode: 0o600 });
    const { code, output } = await run(["--store", "file", "--token-file", path], `${sandbox.intervalsApiKey}\n`);
    expect(code, output).toBe(0);
    expect(output).toContain("intervals.icu takes the key: it opens the log of Maya Lindgren (i218734).");
    expect(output).toContain(`Stored the intervals.icu API key as intervals_api_key in the token file ${path}; its other fields are kept.`);
    expect(output).not.toContain(sandbox.intervalsApiKey);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({
      client_id: "1",
      client_secret: "s",
      refresh_token: "r",
      note: "kept",
      intervals_api_key: sandbox.intervalsApiKey,
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("refuses a key intervals.icu does not take, storing nothing and printing nothing of it", async () => {
    const path = join(directory, "refused.json");
    const wrong = "wrongkey0123456789abcdefg";
    const { code, output } = await run(["--store", "file", "--token-file", path], wrong);
    expect(code).toBe(1);
    expect(output).toContain("Storing the key failed: intervals.icu did not accept this key for athlete 0 (it answered 403).");
    expect(output).toContain("Nothing was stored.");
    expect(output).not.toContain(wrong);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it("never takes the key from the command line: refused by name, its value not repeated, nothing written", async () => {
    const path = join(directory, "argv.json");
    for (const args of [["--key", "secretvalue123"], ["--api-key=secretvalue123"]]) {
      const { code, output } = await run(["--store", "file", "--token-file", path, ...args], "");
      expect(code).toBe(2);
      expect(output).toMatch(/is not an option: the key is never taken from the command line/);
      expect(output).not.toContain("secretvalue123");
    }
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it("says when no key was given", async () => {
    const { code, output } = await run(["--store", "file", "--token-file", join(directory, "none.json")], "");
    expect(code).toBe(1);
    expect(output).toContain("No key was given: type it at the prompt, or pipe it to standard input. Nothing was stored.");
  });

  it("writes into a Secrets Manager secret, creating it when missing and keeping an existing one's fields", async () => {
    const created = await run(["--store", "secrets-manager", "--secret-name", "icu-new", "--region", "us-west-2"], sandbox.intervalsApiKey);
    expect(created.code, created.output).toBe(0);
    expect(await secret("icu-new")).toEqual({ intervals_api_key: sandbox.intervalsApiKey });
    const client = new SecretsManagerClient({ region: "us-west-2" });
    await client.send(new CreateSecretCommand({ Name: "icu-shared", SecretString: JSON.stringify({ client_id: "1", note: "kept" }) }));
    client.destroy();
    const kept = await run(["--store", "secrets-manager", "--secret-name", "icu-shared"], sandbox.intervalsApiKey);
    expect(kept.code, kept.output).toBe(0);
    expect(kept.output).toContain(
      'Stored the intervals.icu API key as intervals_api_key in the Secrets Manager secret "icu-shared" in us-west-2',
    );
    expect(await secret("icu-shared")).toEqual({ client_id: "1", note: "kept", intervals_api_key: sandbox.intervalsApiKey });
    expect(created.output + kept.output).not.toContain(sandbox.intervalsApiKey);
  });

  it("--remove takes the key out and keeps the rest; --no-check stores without asking intervals.icu", async () => {
    const path = join(directory, "remove.json");
    const stored = await run(["--store", "file", "--token-file", path, "--no-check"], "offlinekey123");
    expect(stored.code, stored.output).toBe(0);
    expect(stored.output).not.toContain("intervals.icu takes the key");
    await writeFile(path, JSON.stringify({ ...JSON.parse(await readFile(path, "utf8")), note: "kept" }));
    const removed = await run(["--remove", "--store", "file", "--token-file", path], "");
    expect(removed.code, removed.output).toBe(0);
    expect(removed.output).toContain("Removed the intervals.icu API key (intervals_api_key)");
    const left = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(left).not.toHaveProperty("intervals_api_key");
    expect(left["note"]).toBe("kept");
  });
});

describe("the hidden prompt of a terminal", () => {
  it("asks, shows nothing of what is typed, takes backspace, and ends at Enter", async () => {
    const input = new PassThrough() as PassThrough & SecretInput;
    const modes: boolean[] = [];
    input.isTTY = true;
    input.setRawMode = (mode: boolean) => modes.push(mode);
    const shown = new PassThrough();
    let screen = "";
    shown.on("data", (chunk: Buffer) => (screen += chunk.toString()));
    const answer = readSecretLine("key: ", input, shown);
    input.write("abcx");
    input.write("\u007fd");
    input.write("\r");
    expect(await answer).toBe("abcd");
    expect(screen).toBe("key: \n");
    expect(modes).toEqual([true, false]);
  });

  it("gives up on Ctrl-C with nothing", async () => {
    const input = new PassThrough() as PassThrough & SecretInput;
    input.isTTY = true;
    input.setRawMode = () => undefined;
    const answer = readSecretLine("key: ", input, new PassThrough());
    input.write("abc\u0003");
    expect(await answer).toBe("");
  });
});
