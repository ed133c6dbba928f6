/**
 * The network edge the host talks to during host checks, all on loopback: the sandbox upstream
 * (Strava-shaped, with OAuth and rotation) and moto_server holding the credentials secret.
 */
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from "@aws-sdk/client-secrets-manager";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";

export interface HostServices {
  sandbox: RunningSandbox;
  moto: MotoServer;
  secretName: string;
  region: string;
  /** Environment for host processes: upstream addresses, AWS endpoint and moto's test credentials. */
  env: Record<string, string>;
  /** The refresh token the secret was seeded with (rotation replaces it). */
  seededRefreshToken: string;
  readSecret(): Promise<Record<string, unknown>>;
  /** Puts the seeded credentials back (client id/secret and the refresh token that works now). */
  reseedSecret(): Promise<void>;
  stop(): Promise<void>;
}

export async function startHostServices(): Promise<HostServices> {
  const moto = await startMotoServer();
  const sandbox = await startSandbox({ uploadProcessingMs: 200 });
  const secretName = "fitness-credentials";
  const region = "us-west-2";
  const client = new SecretsManagerClient({
    region,
    endpoint: moto.endpoint,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  const seeded = (): string =>
    JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, refresh_token: sandbox.refreshToken() });
  const seededRefreshToken = sandbox.refreshToken();
  const rescueDir = mkdtempSync(join(tmpdir(), "host-token-rescue-"));
  await client.send(new CreateSecretCommand({ Name: secretName, SecretString: seeded() }));
  return {
    sandbox,
    moto,
    secretName,
    region,
    seededRefreshToken,
    env: {
      ...moto.env,
      // Not the shared default directory: another run on this machine (same sandbox seed, same secret name) could meet its copies.
      FITNESS_TOKEN_RESCUE_DIR: rescueDir,
      AWS_REGION: region,
      STRAVA_API_BASE: sandbox.apiBase,
      STRAVA_TOKEN_URL: sandbox.tokenUrl,
    },
    async readSecret() {
      // By stage: the plugin makes a new version current by moving AWSCURRENT, and moto answers an old version when no stage is named.
      const answer = await client.send(new GetSecretValueCommand({ SecretId: secretName, VersionStage: "AWSCURRENT" }));
      return JSON.parse(answer.SecretString ?? "null") as Record<string, unknown>;
    },
    async reseedSecret() {
      // Staged and moved, as the plugin writes: a plain PutSecretValue after the plugin's stage moves would
      // leave moto with two versions labelled AWSCURRENT (it does not track the move).
      const currentId = (await client.send(new GetSecretValueCommand({ SecretId: secretName, VersionStage: "AWSCURRENT" }))).VersionId;
      const put = await client.send(
        new PutSecretValueCommand({ SecretId: secretName, SecretString: seeded(), VersionStages: ["AWSPENDING"] }),
      );
      await client.send(
        new UpdateSecretVersionStageCommand({
          SecretId: secretName,
          VersionStage: "AWSCURRENT",
          MoveToVersionId: put.VersionId,
          RemoveFromVersionId: currentId,
        }),
      );
    },
    async stop() {
      rmSync(rescueDir, { recursive: true, force: true });
      client.destroy();
      await sandbox.close();
      await moto.stop();
    },
  };
}
