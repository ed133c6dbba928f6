/**
 * The agent-sized answer parameters through the plugin as the host runs it (default export registered
 * on a recording host API, `fitness_*` tools invoked without host-side validation), credentials in a
 * Secrets Manager secret served by moto_server, the sandbox upstream. The checks are the core's
 * (test/support/agent-sized-answers.ts).
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import { agentSizedAnswerChecks, upstreamReader, type AnswerContext } from "../support/agent-sized-answers.ts";
import { registerPlugin, textOf } from "./recording-host-api.ts";
import { toolNamePrefix } from "../../plugin/host-tool.ts";

let moto: MotoServer;
let sandbox: RunningSandbox;
let context: AnswerContext;
const savedEnv = { ...process.env };

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  const plenty: [number, number] = [100_000, 100_000];
  sandbox = await startSandbox({ rotateRefreshTokens: false, rateLimits: { overall: plenty, read: plenty } });
  process.env["STRAVA_API_BASE"] = sandbox.apiBase;
  process.env["STRAVA_TOKEN_URL"] = sandbox.tokenUrl;
  const secrets = new SecretsManagerClient({ region: "us-west-2" });
  try {
    await secrets.send(
      new CreateSecretCommand({
        Name: "answers-credentials",
        SecretString: JSON.stringify({
          client_id: sandbox.clientId,
          client_secret: sandbox.clientSecret,
          refresh_token: sandbox.refreshToken(),
        }),
      }),
    );
  } finally {
    secrets.destroy();
  }
  const host = registerPlugin({ secretName: "answers-credentials", cloudRegion: "us-west-2" });
  context = {
    sandbox,
    upstream: await upstreamReader(sandbox),
    call: async (tool, args) => {
      const result = await host.invoke(`${toolNamePrefix}${tool}`, args);
      return { text: textOf(result), isError: result.isError === true };
    },
  };
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await moto?.stop();
  process.env = savedEnv;
});

describe("agent-sized answers through the plugin", () => {
  it.each(agentSizedAnswerChecks.map(([name, check]) => [name, check] as const))(
    "%s",
    async (_name, check) => {
      await check(context);
    },
    60_000,
  );
});
