/**
 * What an AWS SDK failure of a store means for the person who must fix it, written once for every store
 * that talks to AWS (Secrets Manager, the athlete's DynamoDB item, OAuth mode's table):
 *
 * - AccessDenied: the permission to grant, and on what;
 * - the deadline passed (the caller's signal aborted): a timeout, which the token manager retries;
 * - no credentials anywhere the SDK looks (environment, profile, container and instance roles): where
 *   credentials come from;
 * - the table or secret does not exist: the store's own words;
 * - anything else: the SDK's error name and message, which hold no secret.
 */
import { CredentialStoreError, CredentialStoreTimeoutError } from "../credential-store.ts";
import { messageOf } from "../../common/named-error.ts";

export function awsCredentialsMissing(error: unknown): boolean {
  return (error as { name?: string } | undefined)?.name === "CredentialsProviderError";
}

export function awsCredentialsMissingMessage(action: string, what: string): string {
  return (
    `No AWS credentials to ${action} the ${what}: give this host a role (an EC2 instance profile, an ECS task role, ` +
    "EKS IRSA), or set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, in the environment of the process (the Gateway's, for the plugin)."
  );
}

export interface AwsCallContext {
  /** The SDK call, as IAM names it: "GetSecretValue", "PutItem" ... */
  call: string;
  /** "read", "write" or "use": what the store was doing. */
  action: string;
  /** The store, for messages ("Secrets Manager secret \"fitness-credentials\" (us-west-2)"). */
  description: string;
  /** Whom to grant what: "the host's role secretsmanager:GetSecretValue on it (see the IAM policy in docs/operators/plugin.md)". */
  permission: string;
  /** Said when the table or secret is missing (ResourceNotFoundException). */
  notFound?: string;
  signal?: AbortSignal | undefined;
}

/** The store error an AWS SDK failure becomes. */
export function awsStoreError(error: unknown, context: AwsCallContext): CredentialStoreError {
  const name = (error as { name?: string }).name ?? "Error";
  const { call, action, description } = context;
  if (name === "AccessDeniedException")
    return new CredentialStoreError(`Not allowed to ${action} the ${description}: grant ${context.permission}.`);
  if (context.signal?.aborted) return new CredentialStoreTimeoutError(`Gave up on ${call} to the ${description}: its deadline passed.`);
  if (awsCredentialsMissing(error)) return new CredentialStoreError(awsCredentialsMissingMessage(action, description));
  if (name === "ResourceNotFoundException" && context.notFound !== undefined) return new CredentialStoreError(context.notFound);
  return new CredentialStoreError(`Could not ${action} the ${description} (${call}: ${name}: ${messageOf(error)}).`);
}
