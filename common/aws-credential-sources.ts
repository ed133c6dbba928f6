/**
 * Why the AWS SDK found no credentials, said from what is actually there: the SDK's own error reads "Could not
 * load credentials from any providers" whatever the cause, and a hint to "set AWS_PROFILE" misleads the
 * person whose AWS_PROFILE names a profile that does not exist. So this looks where the SDK's default chain
 * looks (the environment's keys; AWS_PROFILE, else `default`, in the config and credentials files) and says
 * which of them is missing, naming the files. It runs only after the SDK failed, so reading two small files
 * costs nothing that matters. The environment is passed in (front ends pass process.env).
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { isSet, readSetting, type Environment } from "./settings/setting.ts";
import { awsAccessKeyId, awsConfigFile, awsProfile, awsSecretAccessKey, awsSharedCredentialsFile } from "./settings/library-variables.ts";

interface ProfileFile {
  path: string;
  /** The profile names its sections declare; undefined when the file cannot be read (usually: it does not exist). */
  profiles: string[] | undefined;
}

/**
 * One or two sentences: what was found and how to fix it, for an error message that begins "No AWS
 * credentials to call Bedrock in us-west-2: ". Names files and profiles, never a key.
 */
export function missingAwsCredentials(env: Environment): string {
  const config = readProfileFile(expandHome(readSetting(env, awsConfigFile) ?? join(homedir(), ".aws", "config")), "config");
  const credentials = readProfileFile(
    expandHome(readSetting(env, awsSharedCredentialsFile) ?? join(homedir(), ".aws", "credentials")),
    "credentials",
  );
  const files = `${describe(config)} and ${describe(credentials)}`;
  const named = readSetting(env, awsProfile);
  const keyId = isSet(env, awsAccessKeyId);
  const secretKey = isSet(env, awsSecretAccessKey);

  if (named !== undefined) {
    const holders = [config, credentials].filter((file) => file.profiles?.includes(named));
    const keysUnused =
      keyId || secretKey ? " While AWS_PROFILE is set, the SDK does not use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY." : "";
    if (holders.length === 0) {
      const known = [...new Set([...(config.profiles ?? []), ...(credentials.profiles ?? [])])];
      return (
        `AWS_PROFILE is "${named}", but no profile of that name is in ${files}, where the AWS SDK reads profiles ` +
        `(AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE choose other files). ` +
        `Set AWS_PROFILE to one they hold${known.length > 0 ? ` (${known.join(", ")})` : ""}, add it (aws configure --profile ${named}), or unset AWS_PROFILE.${keysUnused}`
      );
    }
    return (
      `the profile "${named}" (AWS_PROFILE, in ${holders.map((file) => file.path).join(" and ")}) gave none: give it keys or a role ` +
      `(aws configure --profile ${named}), or sign in if it uses AWS SSO (aws sso login --profile ${named}).${keysUnused}`
    );
  }
  if (keyId !== secretKey) {
    return `${keyId ? "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not" : "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not"}: set both, or neither.`;
  }
  const defaults = [config, credentials].filter((file) => file.profiles?.includes("default"));
  if (defaults.length > 0) {
    return (
      `none in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), and the default profile in ${defaults.map((file) => file.path).join(" and ")} gave none. ` +
      "Give the default profile keys or a role (aws configure), set AWS_PROFILE to another profile, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY."
    );
  }
  return (
    `none in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), no AWS_PROFILE, no default profile in ${files}, and no role from this machine or container. ` +
    "Give the function a role; locally, set AWS_PROFILE to a profile in those files (aws configure --profile NAME makes one), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY."
  );
}

function expandHome(path: string): string {
  return path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

/** The profiles a file declares: `[profile NAME]` and `[default]` in the config file, `[NAME]` in the credentials file. */
function readProfileFile(path: string, kind: "config" | "credentials"): ProfileFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { path, profiles: undefined };
  }
  const profiles: string[] = [];
  for (const match of text.matchAll(/^\s*\[\s*([^\]]+?)\s*\]/gm)) {
    const section = (match[1] as string).replace(/\s+/g, " ");
    if (kind === "credentials") profiles.push(section);
    else if (section === "default") profiles.push("default");
    else if (section.startsWith("profile ")) profiles.push(section.slice("profile ".length).trim());
  }
  return { path, profiles };
}

function describe(file: ProfileFile): string {
  return file.profiles === undefined ? `${file.path} (not there)` : file.path;
}
