/**
 * Property, through the OpenClaw front end: malformed arguments given to the registered tools'
 * `execute` (as the host's direct invoke path does, without schema validation) always give an error
 * result naming the problem, and the upstream (a real sandbox, with a working secret in moto) sees
 * no request at all.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import fc from "fast-check";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { badCall } from "../support/bad-arguments.ts";
import { registerPlugin, textOf, type RecordingHost } from "../plugin/recording-host-api.ts";

let sandbox: RunningSandbox;
let moto: MotoServer;
let host: RecordingHost;
const savedEnv = { ...process.env };

beforeAll(async () => {
  [sandbox, moto] = await Promise.all([startSandbox(), startMotoServer()]);
  Object.assign(process.env, moto.env, { STRAVA_API_BASE: sandbox.apiBase, STRAVA_TOKEN_URL: sandbox.tokenUrl });
  await new SecretsManagerClient({ region: "us-west-2" }).send(
    new CreateSecretCommand({
      Name: "fitness-credentials",
      SecretString: JSON.stringify({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        refresh_token: sandbox.refreshToken(),
      }),
    }),
  );
  host = registerPlugin({});
  // The set-up works: one valid call reaches the sandbox.
  expect((await host.invoke("fitness_get_athlete", {})).isError).toBeUndefined();
  sandbox.resetCounters();
}, 60_000);
afterAll(async () => {
  process.env = savedEnv;
  await sandbox?.close();
  await moto?.stop();
});

it("malformed arguments through the plugin never reach the upstream and name the problem", async () => {
  await fc.assert(
    fc.asyncProperty(badCall(), async ({ tool, args, mustMention }) => {
      const result = await host.invoke(`fitness_${tool.name}`, args);
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ ok: false, isError: true });
      expect(textOf(result).startsWith("Error: ")).toBe(true);
      expect(textOf(result)).toContain(mustMention);
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
  );
  expect(sandbox.counters().requests).toBe(0);
});
