/**
 * OAuth mode's AWS resources in moto_server, as the SAM template makes them in AWS: the state table
 * (partition key `pk`, the `athlete_id` keys-only index, TTL on `ttl`) and the signing key secret. Made by
 * the code of `npm run hosted:local-aws`, so the tests keep that command's resources right.
 */
import { makeHostedResources } from "../../mcp-adapter/hosted/local-aws-resources.ts";

export async function createOAuthResources(names: { table: string; secret: string }, region = "us-west-2"): Promise<void> {
  const made = await makeHostedResources({ table: names.table, signingKeySecret: names.secret, region });
  if (made.table !== "made" || made.signingKeySecret !== "made")
    throw new Error(`the test's AWS resources were already there: ${JSON.stringify(made)}`);
}
