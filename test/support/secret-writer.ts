/**
 * A test's own write of a new current version of a secret on moto_server (an operator authorizing again),
 * readable whichever way a reader asks: by the stage name AWSCURRENT, or with no stage at all.
 *
 * moto does not track UpdateSecretVersionStage: after a stage move, a plain PutSecretValue leaves a second
 * version labelled AWSCURRENT (the one moved to), and a no-stage read answers the version moto last put.
 * So: a plain put, then the label moved off any other version still holding it.
 */
import {
  ListSecretVersionIdsCommand,
  PutSecretValueCommand,
  UpdateSecretVersionStageCommand,
  type SecretsManagerClient,
} from "@aws-sdk/client-secrets-manager";

export async function writeCurrentSecret(client: SecretsManagerClient, secretName: string, value: unknown): Promise<void> {
  const put = await client.send(new PutSecretValueCommand({ SecretId: secretName, SecretString: JSON.stringify(value) }));
  const versions = (await client.send(new ListSecretVersionIdsCommand({ SecretId: secretName, IncludeDeprecated: true }))).Versions ?? [];
  for (const version of versions) {
    if (version.VersionId === put.VersionId || !version.VersionStages?.includes("AWSCURRENT")) continue;
    // Removal only: naming the new version as well would give it the label twice in moto, and a later stage
    // move takes one of the two away and leaves an old version current beside the new one.
    await client.send(
      new UpdateSecretVersionStageCommand({ SecretId: secretName, VersionStage: "AWSCURRENT", RemoveFromVersionId: version.VersionId }),
    );
  }
}
