/** OAuth mode's stores on local files, all in one state directory (state-directory.ts). */
import { athleteCredentialStores } from "../../credentials/store-choice.ts";
import type { AuthorizationStores, OpenAuthorizationStoresOptions } from "./authorization-stores.ts";
import { FileAthleteStore } from "./file-athlete-store.ts";
import { FileGrantStore } from "./file-grant-store.ts";
import { FileRegistrationStore } from "./file-registration-store.ts";
import { FileSigningKey } from "./file-signing-key.ts";
import { FileUsageStore } from "./file-usage-store.ts";
import { StateDirectory } from "./state-directory.ts";

export async function fileStores(path: string, options: OpenAuthorizationStoresOptions): Promise<AuthorizationStores> {
  const directory = new StateDirectory({ directory: path, now: options.now });
  const registrations = new FileRegistrationStore(directory);
  const grants = new FileGrantStore(directory);
  const athletes = new FileAthleteStore(directory, options.application);
  const credentials = await athleteCredentialStores("athlete-file", { requestTimeoutMs: options.requestTimeoutMs });
  return {
    description: directory.description,
    registrations,
    grants,
    athletes,
    usage: new FileUsageStore(directory),
    signingKey: new FileSigningKey(directory),
    athleteCredentials: (athleteId) => credentials(athletes.credentialsOf(athleteId)),
    sweepExpired: async () => {
      await registrations.sweepExpired();
      await grants.sweepExpired();
    },
  };
}
