/**
 * The hosted function's AWS resources as mcp-adapter/hosted/template.yaml makes them, made in a local AWS
 * stand-in (moto_server) for `npm run hosted` on the DynamoDB path: the state table (partition key `pk`, the
 * `athlete_id` keys-only index, TTL on `ttl`) and the secret holding the access-token signing key. Each one
 * already there is left as it is, so the command can be run again.
 */
import { randomBytes } from "node:crypto";
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from "@aws-sdk/client-dynamodb";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";

export interface HostedResourceNames {
  table: string;
  signingKeySecret: string;
  region: string;
}

export interface MadeResources {
  table: "made" | "already there";
  signingKeySecret: "made" | "already there";
}

export async function makeHostedResources(names: HostedResourceNames): Promise<MadeResources> {
  const dynamodb = new DynamoDBClient({ region: names.region });
  const secrets = new SecretsManagerClient({ region: names.region });
  try {
    return {
      table: await alreadyThere(
        "ResourceInUseException",
        dynamodb
          .send(
            new CreateTableCommand({
              TableName: names.table,
              KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
              AttributeDefinitions: [
                { AttributeName: "pk", AttributeType: "S" },
                { AttributeName: "athlete_id", AttributeType: "S" },
              ],
              GlobalSecondaryIndexes: [
                {
                  IndexName: "athlete_id",
                  KeySchema: [{ AttributeName: "athlete_id", KeyType: "HASH" }],
                  Projection: { ProjectionType: "KEYS_ONLY" },
                },
              ],
              BillingMode: "PAY_PER_REQUEST",
            }),
          )
          .then(() =>
            dynamodb.send(
              new UpdateTimeToLiveCommand({ TableName: names.table, TimeToLiveSpecification: { AttributeName: "ttl", Enabled: true } }),
            ),
          ),
      ),
      // 64 characters, as the template's GenerateSecretString makes it.
      signingKeySecret: await alreadyThere(
        "ResourceExistsException",
        secrets.send(new CreateSecretCommand({ Name: names.signingKeySecret, SecretString: randomBytes(48).toString("base64url") })),
      ),
    };
  } finally {
    dynamodb.destroy();
    secrets.destroy();
  }
}

/** "made" when `creation` succeeds, "already there" when AWS answers `existsError`; any other failure is thrown. */
async function alreadyThere(existsError: string, creation: Promise<unknown>): Promise<"made" | "already there"> {
  try {
    await creation;
    return "made";
  } catch (error) {
    if ((error as { name?: string }).name === existsError) return "already there";
    throw error;
  }
}
