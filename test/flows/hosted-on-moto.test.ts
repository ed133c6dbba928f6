/**
 * `npm run hosted` on the DynamoDB path, offline, as the recipe runs it: moto_server as AWS, `npm run
 * hosted:local-aws` makes the table and the signing key as the template does and prints the command to run,
 * and that command serves the hosted handler with its state in the table (the built-in sandbox playing
 * Strava): a client signs in and calls a tool. Run again, the command leaves what is there; pointed at AWS
 * itself, it refuses.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { baseEnv } from "../mcp-adapter/mcp-child.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { connectWithOAuth, resultText } from "../support/oauth-session.ts";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { runNpm, runPrintedCommand, type NpmRun } from "../support/npm-run.ts";

let moto: MotoServer;
const running: NpmRun[] = [];

beforeAll(async () => {
  moto = await startMotoServer();
});

afterAll(async () => {
  await Promise.all(running.map((run) => run.stop()));
  await moto?.stop();
});

/** The recipe's one export line: every AWS service at moto, any credentials. */
function recipeEnv(): Record<string, string> {
  return baseEnv({ AWS_ENDPOINT_URL: moto.endpoint, AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test", AWS_REGION: "us-west-2" });
}

describe("npm run hosted on moto (the DynamoDB path)", () => {
  test(
    "hosted:local-aws makes the table and key and prints the command; that command serves sign-in and tools from the table",
    { timeout: 90_000 },
    async () => {
      const make = runNpm(["run", "--silent", "hosted:local-aws"], recipeEnv());
      running.push(make);
      expect(await make.exited).toBe(0);
      expect(make.stdout()).toContain(
        `DynamoDB table fitness-oauth: made; Secrets Manager secret fitness-signing-key: made (${moto.endpoint}, us-west-2).`,
      );
      const command = /^ {2}(MCP_OAUTH_TABLE=\S+ MCP_SIGNING_KEY_SECRET=\S+ npm run hosted)$/m.exec(make.stdout())?.[1];
      expect(command).toBe("MCP_OAUTH_TABLE=fitness-oauth MCP_SIGNING_KEY_SECRET=fitness-signing-key npm run hosted");

      const hosted = runPrintedCommand(command!, { ...recipeEnv(), PORT: "0" });
      running.push(hosted);
      const [line] = await hosted.waitFor(/\{[^\n]*"event":"local_function_url"[^\n]*\}/);
      const local = JSON.parse(line) as { mcp: string; upstream: string; state: string };
      expect(local).toMatchObject({ upstream: "sandbox", state: "DynamoDB table fitness-oauth" });
      const provider = new RecordingOAuthProvider();
      const client = await connectWithOAuth(local.mcp, provider);
      if (!client) throw new Error(`sign-in failed: ${JSON.stringify(provider.outcome).slice(0, 1500)}\n${hosted.stderr()}`);
      expect(resultText(await client.callTool({ name: "get_athlete", arguments: {} }))).toContain('"firstname":"Maya"');
      await client.close();
      expect(await hosted.stop()).toBe(0);

      const again = runNpm(["run", "--silent", "hosted:local-aws"], recipeEnv());
      running.push(again);
      expect(await again.exited).toBe(0);
      expect(again.stdout()).toContain(
        "DynamoDB table fitness-oauth: already there; Secrets Manager secret fitness-signing-key: already there",
      );
    },
  );

  test("pointed at AWS itself (no local endpoint), it refuses and says what to start", async () => {
    const refused = runNpm(["run", "--silent", "hosted:local-aws"], baseEnv({ AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test" }));
    running.push(refused);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain(
      "but the DynamoDB endpoint is AWS itself. Start one (moto_server -H 127.0.0.1 -p 5000) and set AWS_ENDPOINT_URL=http://127.0.0.1:5000",
    );
  });
});
