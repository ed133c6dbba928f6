/**
 * The one place that turns a description of where credentials live into a store, for the MCP server, the
 * plugin and `npm run authorize` alike. A front end reads its settings (the environment, the plugin's
 * config, command-line options) into a description; nothing else decides which store class to make.
 *
 * - `secrets-manager`: one JSON secret shared by every instance (the plugin's default); new tokens wait in
 *   this machine's rescue directory until the secret has them;
 * - `token-file`: a local JSON file (0600) holding the application's client_id and client_secret and the
 *   athlete's tokens, as `npm run authorize -- --store file` writes it; several processes share it safely;
 * - `environment`: the STRAVA_* variables, with their rotations kept in a token file;
 * - `memory`: credentials that live and die with the process (the built-in sandbox).
 *
 * The token file and the secret may also keep intervals.icu's API key beside (`openKeyStore`).
 *
 * OAuth mode keeps the tokens of each athlete who signed in (`openAthleteCredentialStore`), with the deployment's
 * Strava application put over whatever a record holds:
 *
 * - `athlete-file`: a token file per athlete in its state directory (`<directory>/athletes/<id>.json`);
 * - `athlete-dynamodb`: an item per athlete in its table (`pk` = `athlete#<id>`), compare-and-swap on a revision.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { Logger } from "../common/logger.ts";
import type { AuthorizationStore, CredentialStore, KeyFieldStore, StoredCredentials } from "./credential-store.ts";
import { tokenRescue } from "./rescue/rescuing-store.ts";
import type { RescueDirectorySetting } from "./rescue/rescue-directory.ts";
import { EnvCredentialStore } from "./stores/environment-store.ts";
import { MemoryCredentialStore } from "./stores/memory-store.ts";
import { TokenFileStore } from "./stores/token-file-store.ts";
import { AthleteTokenFile, type ApplicationCredentials } from "./stores/athlete-token-file.ts";

export type CredentialStoreDescription =
  | { kind: "secrets-manager"; secretName: string; region: string }
  | { kind: "token-file"; path: string }
  | { kind: "environment"; clientId: string; clientSecret: string; refreshToken: string; tokenFile: string }
  | { kind: "memory"; credentials: StoredCredentials; description: string };

/** Where OAuth mode keeps one athlete's Strava tokens, and the deployment's application put over them. */
export type AthleteCredentialsDescription =
  | { kind: "athlete-file"; directory: string; athleteId: string; application: ApplicationCredentials }
  | { kind: "athlete-dynamodb"; table: string; region: string; athleteId: string; application: ApplicationCredentials };

/** One athlete's Strava tokens in OAuth mode: what the token manager drives, and the sign-in's unconditional write. */
export type AthleteCredentialStore = CredentialStore & Pick<AuthorizationStore, "writeAuthorization">;

/** The stores an operator authorizes into (`npm run authorize -- --store ...`). */
export type AuthorizationTarget = Extract<CredentialStoreDescription, { kind: "secrets-manager" | "token-file" }>;

export interface OpenStoreOptions {
  logger: Logger;
  /** Deadline of each store request (the store deadline, FITNESS_STORE_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Where a remote store's new tokens wait on this machine (FITNESS_TOKEN_RESCUE_DIR). */
  rescue: RescueDirectorySetting;
}

export async function openCredentialStore(description: CredentialStoreDescription, options: OpenStoreOptions): Promise<CredentialStore> {
  switch (description.kind) {
    case "secrets-manager": {
      // Loaded only here: the AWS SDK is a large share of a process's memory, and most runs never need it.
      const { SecretsManagerStore } = await import("./stores/secrets-manager-store.ts");
      return tokenRescue(
        options.rescue,
        options.logger,
      )(new SecretsManagerStore({ ...description, requestTimeoutMs: options.requestTimeoutMs }));
    }
    case "token-file":
      return new TokenFileStore({ path: description.path });
    case "environment":
      return new EnvCredentialStore({ ...description, file: new TokenFileStore({ path: description.tokenFile }) });
    case "memory":
      return new MemoryCredentialStore(description.credentials, description.description);
  }
}

/** The store `npm run authorize` writes a new grant into (a secret is created when it does not exist). */
export async function openAuthorizationStore(target: AuthorizationTarget): Promise<AuthorizationStore> {
  if (target.kind === "token-file") return new TokenFileStore({ path: target.path });
  const { SecretsManagerStore } = await import("./stores/secrets-manager-store.ts");
  return new SecretsManagerStore({ secretName: target.secretName, region: target.region, createIfMissing: true });
}

/**
 * The store that keeps another training log's API key beside the rest of its record (intervals.icu's key, for the
 * plugin and the operator's `npm run authorize:intervals`). `createIfMissing`: a secret that does not exist is
 * created on the first write (the operator's command); the plugin only reads.
 */
export async function openKeyStore(
  target: AuthorizationTarget,
  options: { requestTimeoutMs?: number; createIfMissing?: boolean } = {},
): Promise<KeyFieldStore> {
  if (target.kind === "token-file") return new TokenFileStore({ path: target.path });
  const { SecretsManagerStore } = await import("./stores/secrets-manager-store.ts");
  return new SecretsManagerStore({
    secretName: target.secretName,
    region: target.region,
    createIfMissing: options.createIfMissing ?? false,
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
}

/**
 * What makes the stores of OAuth mode's athletes, all of one kind: what that kind needs is loaded once (the AWS
 * SDK for DynamoDB), then each athlete's store is made at once, as requests name athletes. `client`: the DynamoDB
 * client the process's other OAuth stores use (one pool of connections for them all); `requestTimeoutMs`: the
 * store deadline.
 */
export async function athleteCredentialStores(
  kind: AthleteCredentialsDescription["kind"],
  options: { requestTimeoutMs: number; client?: DynamoDBClient },
): Promise<(description: AthleteCredentialsDescription) => AthleteCredentialStore> {
  // Loaded only for DynamoDB, as the other AWS stores are.
  const dynamoDb = kind === "athlete-dynamodb" ? await import("./stores/dynamodb-store.ts") : undefined;
  return (description) => {
    if (description.kind === "athlete-file") return new AthleteTokenFile(description);
    if (dynamoDb === undefined) throw new TypeError("athleteCredentialStores was made for athletes' token files, not DynamoDB items");
    return new dynamoDb.DynamoDbCredentialStore({
      tableName: description.table,
      athleteId: description.athleteId,
      key: dynamoDb.oauthAthleteKey(description.athleteId),
      region: description.region,
      application: description.application,
      requestTimeoutMs: options.requestTimeoutMs,
      ...(options.client ? { client: options.client } : {}),
    });
  };
}
