/**
 * One athlete whose Strava tokens live in a DynamoDB item (moto_server), shared by several real server
 * processes, for the token-durability scenarios.
 *
 * How a server is pointed at a DynamoDB credential store today: only OAuth mode offers one. The plain MCP
 * server's stores are the STRAVA_* variables, a token file and a Secrets Manager secret
 * (credentials/store-choice.ts); OAuth mode with MCP_OAUTH_TABLE keeps each signed-in athlete's tokens as one
 * item of its table (credentials/stores/dynamodb-store.ts, made by credentials/store-choice.ts for authorization/stores/), refreshed by the
 * same token manager, with the rescue copy of new tokens on a long-running server. That is what a hosted
 * deployment with several instances runs, so these servers are `npm start` in OAuth mode (what the hosted
 * Lambda runs too, minus the rescue copy), all with one table, one signing key secret and one PUBLIC_URL: a
 * balancer on loopback in front of whichever are running. The athlete signs in once through it, as a client
 * app would (the MCP SDK's OAuth client, Strava's consent played by the sandbox), and every call carries the
 * access token that sign-in gave, which every instance accepts, those started later included.
 *
 * A sign-in also stores a new Strava grant in the athlete's item: that is how a lost refresh token is
 * replaced between rounds (`signIn` starts a server of its own for it, and stops it).
 */
import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import type { RunningSandbox } from "../../sandbox/server.ts";
import { DynamoDbCredentialStore } from "../../credentials/stores/dynamodb-store.ts";
import { baseEnv, spawnMcpChild } from "../mcp-adapter/mcp-child.ts";
import type { MotoServer } from "../support/moto-server.ts";
import { createOAuthResources } from "../support/oauth-aws.ts";
import { maya } from "../support/oauth-server.ts";
import { connectWithOAuth } from "../support/oauth-session.ts";
import { startRoundRobinProxy, type RoundRobinProxy } from "../support/round-robin-proxy.ts";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";

export interface DynamoDbAthlete {
  /** The athlete (the sandbox's own). */
  readonly athleteId: string;
  readonly table: string;
  /** PUBLIC_URL of every server: the balancer. */
  readonly publicUrl: string;
  /** The environment of a server in OAuth mode on the table (`extra` over it). */
  serverEnv(extra?: Record<string, string>): Record<string, string>;
  /** The access token of the athlete's last sign-in. */
  accessToken(): string;
  /** Signs the athlete in again (a new Strava grant in the item, a new access token), through a server of its own. */
  signIn(): Promise<void>;
  /** Sends the balancer's requests to these ports. */
  route(ports: number[]): void;
  /** The refresh token the item holds now. */
  storedRefreshToken(): Promise<string>;
  /** Reads the athlete's item directly, as another instance would (load on the store). */
  readItem(): Promise<void>;
  close(): Promise<void>;
}

/** Limits far above what the scenarios spend: the fair share must never be what refuses a call here. */
const plentyOfRequests = "1000000,10000000,1000000,10000000";

export async function dynamoDbAthlete(options: {
  moto: MotoServer;
  sandbox: RunningSandbox;
  /** The table and signing key secret are made under these names (each scenario its own). */
  table: string;
  /** Where the servers keep their rescue copies of new tokens (one machine's directory). */
  rescueDir: string;
}): Promise<DynamoDbAthlete> {
  const { moto, sandbox, table } = options;
  const signingKeySecret = `${table}-signing-key`;
  const saved = { ...process.env };
  Object.assign(process.env, moto.env);
  try {
    await createOAuthResources({ table, secret: signingKeySecret });
  } finally {
    process.env = saved;
  }
  const balancer: RoundRobinProxy = await startRoundRobinProxy();
  const client = new DynamoDBClient({
    region: "us-west-2",
    endpoint: moto.endpoint,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  const tokens = new DynamoDbCredentialStore({
    tableName: table,
    athleteId: maya,
    key: { name: "pk", value: `athlete#${maya}` },
    region: "us-west-2",
    application: { client_id: sandbox.clientId, client_secret: sandbox.clientSecret },
    client,
  });
  const serverEnv = (extra: Record<string, string> = {}): Record<string, string> =>
    baseEnv({
      ...moto.env,
      MCP_AUTH: "oauth",
      PORT: "0",
      PUBLIC_URL: balancer.origin,
      MCP_OAUTH_TABLE: table,
      MCP_SIGNING_KEY_SECRET: signingKeySecret,
      STRAVA_CLIENT_ID: sandbox.clientId,
      STRAVA_CLIENT_SECRET: sandbox.clientSecret,
      STRAVA_API_BASE: sandbox.apiBase,
      STRAVA_TOKEN_URL: sandbox.tokenUrl,
      STRAVA_AUTHORIZE_URL: sandbox.authorizeUrl,
      STRAVA_REVOKE_URL: sandbox.revokeUrl,
      STRAVA_RATE_LIMITS: plentyOfRequests,
      FITNESS_TOKEN_RESCUE_DIR: options.rescueDir,
      ...extra,
    });
  let accessToken = "";
  const athlete: DynamoDbAthlete = {
    athleteId: maya,
    table,
    publicUrl: balancer.origin,
    serverEnv,
    accessToken: () => accessToken,
    route: (ports) => balancer.setTargets(ports),
    async signIn() {
      const child = spawnMcpChild({ env: serverEnv() });
      try {
        balancer.setTargets([Number((await child.waitForEvent("listening", 60_000))["port"])]);
        const provider = new RecordingOAuthProvider();
        const signedIn = await connectWithOAuth(`${balancer.origin}/mcp`, provider);
        if (!signedIn)
          throw new Error(`the athlete's sign-in did not come back: ${JSON.stringify(provider.outcome?.page ?? provider.outcome)}`);
        await signedIn.close();
        accessToken = provider.tokens()?.access_token ?? "";
        if (!accessToken) throw new Error("the sign-in gave no access token");
      } finally {
        await child.stop();
      }
    },
    storedRefreshToken: async () => (await tokens.load(AbortSignal.timeout(10_000))).credentials.refresh_token,
    async readItem() {
      await client.send(new GetItemCommand({ TableName: table, Key: { pk: { S: `athlete#${maya}` } }, ConsistentRead: true }), {
        abortSignal: AbortSignal.timeout(10_000),
      });
    },
    async close() {
      client.destroy();
      await balancer.close();
    },
  };
  await athlete.signIn();
  return athlete;
}
