/** OAuth mode's stores in one DynamoDB table (state-table.ts), with the signing key in Secrets Manager. */
import { athleteCredentialStores } from "../../credentials/store-choice.ts";
import type { AuthorizationStores, AuthorizationStoresDescription, OpenAuthorizationStoresOptions } from "./authorization-stores.ts";
import { DynamoDbAthleteStore } from "./dynamodb-athlete-store.ts";
import { DynamoDbGrantStore } from "./dynamodb-grant-store.ts";
import { DynamoDbRegistrationStore } from "./dynamodb-registration-store.ts";
import { DynamoDbUsageStore } from "./dynamodb-usage-store.ts";
import { SecretsManagerSigningKey } from "./secrets-manager-signing-key.ts";
import { StateTable } from "./state-table.ts";

export async function dynamoDbStores(
  description: Extract<AuthorizationStoresDescription, { kind: "dynamodb" }>,
  options: OpenAuthorizationStoresOptions,
): Promise<AuthorizationStores> {
  const table = new StateTable({
    tableName: description.table,
    region: description.region,
    requestTimeoutMs: options.requestTimeoutMs,
    now: options.now,
  });
  const athletes = new DynamoDbAthleteStore(table, options.application);
  // Every athlete's item goes through the table's own client: one pool of connections for the process.
  const credentials = await athleteCredentialStores("athlete-dynamodb", {
    requestTimeoutMs: options.requestTimeoutMs,
    client: table.client,
  });
  return {
    description: table.description,
    registrations: new DynamoDbRegistrationStore(table),
    grants: new DynamoDbGrantStore(table),
    athletes,
    usage: new DynamoDbUsageStore(table),
    signingKey: new SecretsManagerSigningKey({
      secret: description.signingKeySecret,
      region: description.region,
      requestTimeoutMs: options.requestTimeoutMs,
    }),
    athleteCredentials: (athleteId) => credentials(athletes.credentialsOf(athleteId)),
    // DynamoDB's TTL removes expired items; reads already treat them as absent.
    sweepExpired: () => Promise.resolve(),
  };
}
