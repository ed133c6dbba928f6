/**
 * Where the fitness plugin reads the athlete's Strava credentials (plugins.entries.fitness.config), and
 * what a setup run does with it: --credentials sets the store (replacing a different one), a run without
 * it keeps the config's choice, and a config without one keeps the plugin's default, the Secrets Manager
 * secret. The report is built from the config as written; the token file it names is checked here
 * (it exists, mode 0600, with the application's credentials and a refresh token), never printed.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { credentialStoreKinds, defaultPluginSettings, defaultTokenFile, type CredentialStoreKind } from "../../plugin/plugin-config.ts";
import { shellQuote } from "../../common/shell-quote.ts";
import { getPath, isJsonObject, type JsonObject, type JsonValue } from "./json-tree.ts";
import { CoachSetupError } from "./setup-error.ts";

export { credentialStoreKinds, type CredentialStoreKind };

/** The store a run leaves in the config. A token file without a path is the plugin's default file. */
export type CredentialsChoice = { kind: "secrets-manager" } | { kind: "token-file"; tokenFile?: string };

export const pluginConfigPath = ["plugins", "entries", "fitness", "config"] as const;
/** The keys an explicit --credentials choice may replace; everything else in the plugin's config is only added to. */
export const chosenCredentialKeys = ["credentialStore", "tokenFile"] as const;

/** The plugin config's credential keys as the file holds them (undefined: not set, the plugin's default applies). */
export interface ConfiguredCredentials {
  credentialStore?: JsonValue;
  tokenFile?: JsonValue;
  secretName?: JsonValue;
  cloudRegion?: JsonValue;
  /** The whole `plugins.entries.fitness.config` object (absent when there is none). */
  block?: JsonValue;
}

/** What the run does to the store: add one where none is set, keep the one there, replace it, or leave it to the plugin's default. */
export type CredentialsAction = "add" | "keep" | "replace" | "default";

export interface CredentialsPlan {
  action: CredentialsAction;
  /** The choice the fragment carries; absent for the plugin's default (and for a value the plugin would refuse, kept as it is). */
  choice?: CredentialsChoice;
  /** Whether --credentials chose it. */
  explicit: boolean;
  /** The credentialStore and tokenFile before the run, when a replace changes them. */
  previous?: { credentialStore?: JsonValue; tokenFile?: JsonValue };
}

/** `--credentials KIND [--token-file PATH]` as given, or what is wrong with it. */
export function credentialsOption(kind: string, tokenFile: string | undefined): CredentialsChoice {
  if (!(credentialStoreKinds as readonly string[]).includes(kind)) {
    throw new CoachSetupError(`--credentials must be one of ${credentialStoreKinds.join(", ")}; got "${kind}".`);
  }
  if (kind === "secrets-manager") {
    if (tokenFile !== undefined) throw new CoachSetupError("--token-file only applies with --credentials token-file.");
    return { kind: "secrets-manager" };
  }
  if (tokenFile === undefined) return { kind: "token-file" };
  const trimmed = tokenFile.trim();
  if (!path.isAbsolute(trimmed) && !trimmed.startsWith("~/")) {
    throw new CoachSetupError(
      `--token-file must be an absolute path, or one under your home folder starting with ~/, such as ${defaultTokenFile}; got "${tokenFile}".`,
    );
  }
  return { kind: "token-file", tokenFile: trimmed };
}

export function configuredCredentials(config: JsonObject): ConfiguredCredentials {
  const block = getPath(config, pluginConfigPath);
  if (!isJsonObject(block)) return block === undefined ? {} : { block };
  const picked: ConfiguredCredentials = { block };
  for (const key of ["credentialStore", "tokenFile", "secretName", "cloudRegion"] as const) {
    if (block[key] !== undefined) picked[key] = block[key];
  }
  return picked;
}

/**
 * What a run does with the credentials. `explicit` is the --credentials choice, if any; `--credentials
 * token-file` without --token-file keeps the config's tokenFile, else writes the plugin's default path.
 */
export function planCredentials(explicit: CredentialsChoice | undefined, configured: ConfiguredCredentials): CredentialsPlan {
  const store = configured.credentialStore;
  const file = typeof configured.tokenFile === "string" ? configured.tokenFile : undefined;
  if (explicit === undefined) {
    if (store === "token-file")
      return { action: "keep", choice: { kind: "token-file", ...(file === undefined ? {} : { tokenFile: file }) }, explicit: false };
    if (store === "secrets-manager") return { action: "keep", choice: { kind: "secrets-manager" }, explicit: false };
    return { action: store === undefined ? "default" : "keep", explicit: false };
  }
  const choice: CredentialsChoice =
    explicit.kind === "token-file" ? { kind: "token-file", tokenFile: explicit.tokenFile ?? file ?? defaultTokenFile } : explicit;
  const wanted: Record<string, JsonValue | undefined> = {
    credentialStore: choice.kind,
    tokenFile: choice.kind === "token-file" ? choice.tokenFile : undefined,
  };
  const differing = chosenCredentialKeys.filter(
    (key) => wanted[key] !== undefined && configured[key] !== undefined && configured[key] !== wanted[key],
  );
  const missing = chosenCredentialKeys.filter((key) => wanted[key] !== undefined && configured[key] === undefined);
  if (differing.length > 0) {
    const previous: CredentialsPlan["previous"] = {};
    for (const key of chosenCredentialKeys) if (configured[key] !== undefined) previous[key] = configured[key];
    return { action: "replace", choice, explicit: true, previous };
  }
  return { action: missing.length > 0 ? "add" : "keep", choice, explicit: true };
}

/** The plugin config the fragment suggests for a choice: a token file needs no secret name or region. */
export function pluginConfigFor(choice: CredentialsChoice, template: JsonObject): JsonObject {
  if (choice.kind === "token-file")
    return { credentialStore: "token-file", ...(choice.tokenFile === undefined ? {} : { tokenFile: choice.tokenFile }) };
  return { credentialStore: "secrets-manager", ...template };
}

/** The store the plugin will use with the config as written (its defaults filled in). */
export type EffectiveCredentials =
  | { kind: "secrets-manager"; secretName: string; cloudRegion: string }
  | { kind: "token-file"; tokenFile: string; path: string }
  | { kind: "invalid"; credentialStore: JsonValue };

export function effectiveCredentials(configured: ConfiguredCredentials, home: string = homedir()): EffectiveCredentials {
  const store = configured.credentialStore ?? defaultPluginSettings.credentialStore;
  if (store === "token-file") {
    const tokenFile = typeof configured.tokenFile === "string" ? configured.tokenFile : defaultPluginSettings.tokenFile;
    return { kind: "token-file", tokenFile, path: tokenFile.startsWith("~/") ? path.join(home, tokenFile.slice(2)) : tokenFile };
  }
  if (store === "secrets-manager") {
    const text = (value: JsonValue | undefined, fallback: string): string => (typeof value === "string" ? value : fallback);
    return {
      kind: "secrets-manager",
      secretName: text(configured.secretName, defaultPluginSettings.secretName),
      cloudRegion: text(configured.cloudRegion, defaultPluginSettings.cloudRegion),
    };
  }
  return { kind: "invalid", credentialStore: store };
}

export interface TokenFileCheck {
  /** The file checked (`~/` resolved). */
  path: string;
  /** Ready: a regular file, mode 0600, holding client_id, client_secret and refresh_token. */
  ok: boolean;
  /** One line: what was found. */
  finding: string;
  /** What to run to fix it (when not ok). */
  fix?: string;
}

/** The command that writes the token file the plugin reads. */
export function authorizeCommand(tokenFile: string): string {
  // A path under the home folder keeps its `~/` outside the quotes: the shell expands it only there.
  const path = tokenFile.startsWith("~/") ? `~/${shellQuote(tokenFile.slice(2))}` : shellQuote(tokenFile);
  return `npm run authorize -- --store file --token-file ${path}`;
}

/** Whether the token file is there and ready for the plugin; reads its field names only, never prints a value. */
export function checkTokenFile(file: string, asConfigured: string = file): TokenFileCheck {
  const authorize = authorizeCommand(asConfigured);
  let mode: number;
  try {
    const info = statSync(file);
    if (!info.isFile()) return { path: file, ok: false, finding: `${file} is not a regular file`, fix: authorize };
    mode = info.mode & 0o777;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { path: file, ok: false, finding: `${file} does not exist yet`, fix: authorize };
    return { path: file, ok: false, finding: `${file} cannot be examined (${code ?? (error as Error).message})`, fix: authorize };
  }
  const octal = mode.toString(8).padStart(4, "0");
  let fields: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    fields = isJsonObject(parsed) ? parsed : {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EACCES") {
      return {
        path: file,
        ok: false,
        finding: `${file} (mode ${octal}) cannot be read by this user`,
        fix: `chmod 600 ${shellQuote(file)} as its owner`,
      };
    }
    return { path: file, ok: false, finding: `${file} is not a token file (not a JSON object)`, fix: authorize };
  }
  const missing = ["client_id", "client_secret", "refresh_token"].filter(
    (key) => typeof fields[key] !== "string" && typeof fields[key] !== "number",
  );
  if (missing.length > 0) {
    return {
      path: file,
      ok: false,
      finding: `${file} holds no ${missing.join(", ")} (the plugin needs the application's client_id and client_secret and the athlete's refresh_token)`,
      fix: authorize,
    };
  }
  if (mode !== 0o600) {
    const why = (mode & 0o077) !== 0 ? "other users of this machine may read it" : "the plugin must be able to write refreshed tokens back";
    return {
      path: file,
      ok: false,
      finding: `${file} has mode ${octal}, not 0600: ${why}`,
      fix: `chmod 600 ${shellQuote(file)} (or write it again: ${authorize})`,
    };
  }
  return { path: file, ok: true, finding: `${file} exists, mode 0600, with client_id, client_secret and a refresh token` };
}
