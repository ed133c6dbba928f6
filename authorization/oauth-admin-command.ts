/**
 * The `npm run oauth-admin` line that acts on the store this server runs on, for messages: the command reads its
 * store from the environment, so a server whose state is not at the default place (`npm run hosted`'s scratch
 * directory, a FITNESS_OAUTH_DIR, a DynamoDB table) prints the variables that name it, or the line would act on
 * another store.
 */
import { shellQuote } from "../common/shell-quote.ts";
import { isSet, readSetting, type Environment } from "../common/settings/setting.ts";
import { awsRegion } from "../common/settings/credential-variables.ts";
import { fitnessOauthDir, mcpOauthTable, mcpSigningKeySecret } from "../common/settings/oauth-variables.ts";

export function oauthAdminCommand(env: Environment, args: string): string {
  const table = readSetting(env, mcpOauthTable);
  const names: string[] = [];
  if (table !== undefined) {
    names.push(`${mcpOauthTable.name}=${shellQuote(table)}`);
    const keySecret = readSetting(env, mcpSigningKeySecret);
    if (keySecret !== undefined) names.push(`${mcpSigningKeySecret.name}=${shellQuote(keySecret)}`);
    if (isSet(env, awsRegion)) names.push(`${awsRegion.name}=${shellQuote(readSetting(env, awsRegion))}`);
  } else {
    const directory = readSetting(env, fitnessOauthDir);
    if (directory !== undefined) names.push(`${fitnessOauthDir.name}=${shellQuote(directory)}`);
  }
  return [...names, `npm run oauth-admin -- ${args}`].join(" ");
}
