/**
 * Variables that libraries read: listed so an operator finds them beside ours. The AWS SDK finds credentials
 * and endpoints this way (tests point AWS_ENDPOINT_URL_* at moto), Node its extra certificate authorities.
 * Our code reads a few of them only to say what the SDK will find: which profile is missing and where it was
 * looked for (voice), whether the endpoints are a local stand-in (npm run hosted:local-aws).
 */
import { defineSetting, text } from "./setting.ts";

const aws = (name: string, meaning: string) =>
  defineSetting({ name, type: "AWS SDK", defaultText: "the SDK's", meaning, readBy: ["library"], parse: text() });

export const awsProfile = aws(
  "AWS_PROFILE",
  "the AWS SDK's named profile (~/.aws/config) for the plugin's host, the server and the scripts",
);
export const awsConfigFile = aws("AWS_CONFIG_FILE", "where the AWS SDK reads profiles (default ~/.aws/config)");
export const awsSharedCredentialsFile = aws(
  "AWS_SHARED_CREDENTIALS_FILE",
  "where the AWS SDK reads profiles' keys (default ~/.aws/credentials)",
);
export const awsAccessKeyId = aws("AWS_ACCESS_KEY_ID", "the AWS SDK's access key (with AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN)");
export const awsSecretAccessKey = { ...aws("AWS_SECRET_ACCESS_KEY", "the AWS SDK's secret key"), secret: true };
export const awsEndpointUrl = aws("AWS_ENDPOINT_URL", "another endpoint for every AWS service (a local emulator)");
export const awsEndpointUrlSecretsManager = aws("AWS_ENDPOINT_URL_SECRETS_MANAGER", "another Secrets Manager endpoint (tests: moto)");
export const awsEndpointUrlDynamodb = aws("AWS_ENDPOINT_URL_DYNAMODB", "another DynamoDB endpoint (tests: moto)");

export const libraryVariables = [
  awsProfile,
  awsConfigFile,
  awsSharedCredentialsFile,
  awsAccessKeyId,
  awsSecretAccessKey,
  { ...aws("AWS_SESSION_TOKEN", "the AWS SDK's session token"), secret: true },
  awsEndpointUrl,
  awsEndpointUrlSecretsManager,
  awsEndpointUrlDynamodb,
  aws("AWS_ENDPOINT_URL_SSM", "another SSM endpoint (tests: moto)"),
  aws("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "another Bedrock Runtime endpoint (tests: a local HTTP/2 fake)"),
  defineSetting({
    name: "NODE_EXTRA_CA_CERTS",
    type: "path",
    defaultText: "none",
    meaning: "Node's extra certificate authorities (a private root for metadata documents)",
    readBy: ["library"],
    parse: text(),
  }),
] as const;
