/**
 * `npm run hosted:local-aws`: makes the hosted function's DynamoDB table and signing-key secret in a local AWS
 * stand-in (moto_server, or another on loopback), then prints the command that runs `npm run hosted` on them.
 * It refuses unless the AWS endpoints point at loopback: in AWS itself the template makes them.
 *
 *   moto_server -H 127.0.0.1 -p 5000 &
 *   export AWS_ENDPOINT_URL=http://127.0.0.1:5000 AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-west-2
 *   npm run hosted:local-aws
 */
import { messageOf } from "../../common/named-error.ts";
import { shellQuote } from "../../common/shell-quote.ts";
import { awsRegion } from "../../common/settings/credential-variables.ts";
import { awsEndpointUrl, awsEndpointUrlDynamodb, awsEndpointUrlSecretsManager } from "../../common/settings/library-variables.ts";
import { mcpOauthTable, mcpSigningKeySecret } from "../../common/settings/oauth-variables.ts";
import { readSetting } from "../../common/settings/setting.ts";
import { isLoopbackHostname } from "../../authorization/oauth-settings.ts";
import { makeHostedResources } from "./local-aws-resources.ts";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const env = process.env;
const endpoints = {
  DynamoDB: readSetting(env, awsEndpointUrlDynamodb) ?? readSetting(env, awsEndpointUrl),
  "Secrets Manager": readSetting(env, awsEndpointUrlSecretsManager) ?? readSetting(env, awsEndpointUrl),
};
for (const [service, endpoint] of Object.entries(endpoints)) {
  const host = endpoint === undefined ? undefined : URL.parse(endpoint)?.hostname;
  if (host === undefined || !isLoopbackHostname(host)) {
    fail(
      `This makes the hosted function's table and signing key in a local AWS stand-in, but the ${service} endpoint is ${endpoint ?? "AWS itself"}. ` +
        "Start one (moto_server -H 127.0.0.1 -p 5000) and set AWS_ENDPOINT_URL=http://127.0.0.1:5000 (with AWS_ACCESS_KEY_ID=test and AWS_SECRET_ACCESS_KEY=test: " +
        "a stand-in takes any). In AWS, deploy mcp-adapter/hosted/template.yaml, which makes them.",
    );
  }
}

const names = {
  table: readSetting(env, mcpOauthTable) ?? "fitness-oauth",
  signingKeySecret: readSetting(env, mcpSigningKeySecret) ?? "fitness-signing-key",
  region: readSetting(env, awsRegion),
};
let made;
try {
  made = await makeHostedResources(names);
} catch (error) {
  const name = error instanceof Error ? error.name : "Error";
  fail(
    name === "CredentialsProviderError"
      ? "No AWS credentials: set AWS_ACCESS_KEY_ID=test and AWS_SECRET_ACCESS_KEY=test (a local stand-in takes any)."
      : `Could not make them at ${endpoints.DynamoDB}: ${name}: ${messageOf(error)}. Is the stand-in running there (moto_server -H 127.0.0.1 -p PORT)?`,
  );
}
console.log(
  [
    `DynamoDB table ${names.table}: ${made.table}; Secrets Manager secret ${names.signingKeySecret}: ${made.signingKeySecret} (${endpoints.DynamoDB}, ${names.region}).`,
    "Start the hosted function on them, in this environment (with no Strava application set, the built-in sandbox plays Strava):",
    `  MCP_OAUTH_TABLE=${shellQuote(names.table)} MCP_SIGNING_KEY_SECRET=${shellQuote(names.signingKeySecret)} npm run hosted`,
  ].join("\n"),
);
