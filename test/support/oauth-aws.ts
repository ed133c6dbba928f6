/**
 * OAuth mode's AWS resources in moto_server, as the SAM template makes them in AWS: the state table
 * (partition key `pk`, the `athlete_id` keys-only index, TTL on `ttl`) and the signing key secret.
 */
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from "@aws-sdk/client-dynamodb";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { randomBytes } from "node:crypto";

export async function createOAuthResources(names: { table: string; secret: string }, region = "us-west-2"): Promise<void> {
  const dynamodb = new DynamoDBClient({ region });
  const secrets = new SecretsManagerClient({ region });
  try {
    await dynamodb.send(
      new CreateTableCommand({
        TableName: names.table,
        KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
        AttributeDefinitions: [
          { AttributeName: "pk", AttributeType: "S" },
          { AttributeName: "athlete_id", AttributeType: "S" },
        ],
        GlobalSecondaryIndexes: [{ IndexName: "athlete_id", KeySchema: [{ AttributeName: "athlete_id", KeyType: "HASH" }], Projection: { ProjectionType: "KEYS_ONLY" } }],
        BillingMode: "PAY_PER_REQUEST",
      }),
    );
    await dynamodb.send(new UpdateTimeToLiveCommand({ TableName: names.table, TimeToLiveSpecification: { AttributeName: "ttl", Enabled: true } }));
    await secrets.send(new CreateSecretCommand({ Name: names.secret, SecretString: randomBytes(48).toString("base64url") }));
  } finally {
    dynamodb.destroy();
    secrets.destroy();
  }
}
