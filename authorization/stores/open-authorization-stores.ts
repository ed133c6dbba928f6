/**
 * The one place that turns a description of where OAuth mode's state lives (authorization-stores.ts) into its
 * stores: local files (file-stores.ts) or DynamoDB with the signing key in Secrets Manager (dynamodb-stores.ts).
 */
import type { AuthorizationStores, AuthorizationStoresDescription, OpenAuthorizationStoresOptions } from "./authorization-stores.ts";

/** The stores the description names; each backend is loaded only when chosen (most runs never need the AWS SDK). */
export async function openAuthorizationStores(
  description: AuthorizationStoresDescription,
  options: OpenAuthorizationStoresOptions,
): Promise<AuthorizationStores> {
  if (description.kind === "files") {
    const { fileStores } = await import("./file-stores.ts");
    return fileStores(description.directory, options);
  }
  const { dynamoDbStores } = await import("./dynamodb-stores.ts");
  return dynamoDbStores(description, options);
}
