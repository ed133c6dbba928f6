/**
 * The AWS SDK looked in every source of credentials it knows (environment, profile, container and
 * instance roles) and found none. Said the same way by every store that talks to AWS, with the fix.
 */
export function awsCredentialsMissing(error: unknown): boolean {
  return (error as { name?: string } | undefined)?.name === "CredentialsProviderError";
}

export function awsCredentialsMissingMessage(action: string, what: string): string {
  return (
    `No AWS credentials to ${action} the ${what}: give this host a role (an EC2 instance profile, an ECS task role, ` +
    "EKS IRSA), or set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, in the environment of the process (the Gateway's, for the plugin)."
  );
}
