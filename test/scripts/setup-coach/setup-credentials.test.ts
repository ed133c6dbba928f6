// `npm run setup:coach` and where the fitness plugin reads the Strava credentials: --credentials token-file
// (with --token-file) writes credentialStore and tokenFile into the plugin's config and checks the file
// (there, mode 0600, with what the plugin needs), --credentials secrets-manager switches back, a rerun
// without the option keeps the config's choice, and the report says what the config holds. The token
// file is written the way `npm run authorize -- --store file` writes it; no value of it is ever printed. The command
// runs in this process (setup-command-run.ts).
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAuthorizationStore } from "../../../credentials/store-choice.ts";
import { resolvePluginSettings, tokenFilePath } from "../../../plugin/plugin-config.ts";
import { getPath, type JsonObject, type JsonValue } from "../../../scripts/setup-coach/json-tree.ts";
import { checkTokenFile } from "../../../scripts/setup-coach/credentials-in-config.ts";
import { setupInProcess, type SetupRun } from "./setup-command-run.ts";

/** What setup also writes into the plugin's config: the coach's debriefs (setup-debriefs.test.ts checks them). */
const debriefDefaults = { debriefs: "15m", debriefAgent: "coach" };

/** What the token file holds; none of it may appear in anything setup prints. */
const SECRETS = { client_secret: "client-secret-4c1d9e", refresh_token: "refresh-token-77aa10", access_token: "access-token-5be2c3" };

type Run = SetupRun;

let scratch: string;
let home: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "coach-setup-credentials-"));
  home = path.join(scratch, "home");
  await mkdir(home, { recursive: true });
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function setup(...args: string[]): Promise<Run> {
  return await setupInProcess(args, {
    ...process.env,
    HOME: home,
    OPENCLAW_STATE_DIR: "",
    OPENCLAW_WORKSPACE_DIR: "",
    OPENCLAW_PROFILE: "",
  });
}

/** The token file as `npm run authorize -- --store file --token-file FILE` writes it. */
async function authorizedFile(file: string): Promise<void> {
  const store = await openAuthorizationStore({ kind: "token-file", path: file });
  await store.writeAuthorization({ client_id: "12345", ...SECRETS, expires_at: 1_900_000_000 }, AbortSignal.timeout(5_000));
}

function paths(name: string): { workspace: string; config: string; tokenFile: string; base: string[] } {
  const workspace = path.join(scratch, name, "workspace-coach");
  const config = path.join(scratch, name, "openclaw.json");
  return {
    workspace,
    config,
    tokenFile: path.join(scratch, name, "strava", "tokens.json"),
    base: ["--workspace", workspace, "--config", config, "--sandbox", "off"],
  };
}

const pluginConfig = async (config: string): Promise<JsonValue | undefined> =>
  getPath(JSON.parse(await readFile(config, "utf8")) as JsonObject, ["plugins", "entries", "fitness", "config"]);

/** The report's credentials section: from its heading to the next blank line. */
function credentialsSection(stdout: string): string {
  return /^Credentials [\s\S]*?(?=\n\n)/m.exec(stdout)?.[0] ?? "";
}

const backupsOf = async (config: string): Promise<string[]> =>
  (await readdir(path.dirname(config))).filter((name) => name.startsWith(`${path.basename(config)}.bak-`));

function expectNoSecret(run: Run): void {
  for (const value of Object.values(SECRETS)) expect(run.stdout + run.stderr).not.toContain(value);
}

describe("setup:coach --credentials token-file", () => {
  it("writes credentialStore and tokenFile (no secret name or region), and warns with the authorize command while the file does not exist", async () => {
    const { config, tokenFile, base } = paths("missing");
    const run = await setup(...base, "--credentials", "token-file", "--token-file", tokenFile);
    expect(run.code, run.stderr).toBe(0);
    expect(await pluginConfig(config)).toEqual({ credentialStore: "token-file", tokenFile, ...debriefDefaults });
    // The plugin reads the same config the same way.
    const settings = resolvePluginSettings(await pluginConfig(config));
    expect({ store: settings.credentialStore, file: tokenFilePath(settings) }).toEqual({ store: "token-file", file: tokenFile });
    expect(run.stdout).toContain(`+ plugins.entries.fitness.config.credentialStore = "token-file"`);
    const section = credentialsSection(run.stdout);
    expect(section).toContain(
      `Credentials plugins.entries.fitness.config = {"credentialStore":"token-file","tokenFile":"${tokenFile}","debriefs":"15m","debriefAgent":"coach"}`,
    );
    expect(section).toContain(`the plugin reads the Strava credentials from the token file ${tokenFile}`);
    expect(section).toContain("added, as --credentials token-file asked");
    expect(section).toContain(
      `WARNING ${tokenFile} does not exist yet. Fix it with:\n    npm run authorize -- --store file --token-file ${tokenFile}`,
    );
    expect(run.stdout).toMatch(/\d+\. Before the athlete writes to the coach, make the token file ready/);
    expect(run.stdout).not.toContain("--store secrets-manager");
  });

  it("checks the file npm run authorize wrote: there, 0600, with the application's credentials and a refresh token; nothing of it printed", async () => {
    const { config, tokenFile, base } = paths("ready");
    await authorizedFile(tokenFile);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    const run = await setup(...base, "--credentials", "token-file", "--token-file", tokenFile);
    expect(run.code, run.stderr).toBe(0);
    expect(credentialsSection(run.stdout)).toContain(
      `check: ${tokenFile} exists, mode 0600, with client_id, client_secret and a refresh token`,
    );
    expect(run.stdout).not.toMatch(/WARNING|make the token file ready/);
    expectNoSecret(run);
    expect(await pluginConfig(config)).toEqual({ credentialStore: "token-file", tokenFile, ...debriefDefaults });
  });

  it("a rerun without --credentials keeps the token file: no change, no secret name added, said so", async () => {
    const { config, tokenFile, base } = paths("ready");
    const before = await readFile(config, "utf8");
    const run = await setup(...base);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("no changes: the coach is already configured");
    expect(await readFile(config, "utf8")).toBe(before);
    const section = credentialsSection(run.stdout);
    expect(section).toContain(`the plugin reads the Strava credentials from the token file ${tokenFile}`);
    expect(section).toContain("kept: already in the config (run setup with --credentials secrets-manager or token-file to change it)");
    expect(section).toContain(`check: ${tokenFile} exists, mode 0600`);
  });

  it("warns when the file is readable by others, with chmod and the authorize command", async () => {
    const { tokenFile, base } = paths("ready");
    await chmod(tokenFile, 0o644);
    try {
      const run = await setup(...base);
      expect(run.code, run.stderr).toBe(0);
      expect(credentialsSection(run.stdout)).toContain(
        `WARNING ${tokenFile} has mode 0644, not 0600: other users of this machine may read it. Fix it with:\n    chmod 600 ${tokenFile} (or write it again: npm run authorize -- --store file --token-file ${tokenFile})`,
      );
      expectNoSecret(run);
    } finally {
      await chmod(tokenFile, 0o600);
    }
  });

  it("warns when the file lacks what the plugin needs (a token file of the environment store holds no client credentials)", async () => {
    const { tokenFile, base } = paths("tokens-only");
    await mkdir(path.dirname(tokenFile), { recursive: true });
    await writeFile(
      tokenFile,
      JSON.stringify({ refresh_token: SECRETS.refresh_token, access_token: SECRETS.access_token, expires_at: 1 }),
      { mode: 0o600 },
    );
    const run = await setup(...base, "--credentials", "token-file", "--token-file", tokenFile);
    expect(run.code, run.stderr).toBe(0);
    expect(credentialsSection(run.stdout)).toContain(`WARNING ${tokenFile} holds no client_id, client_secret (the plugin needs`);
    expect(credentialsSection(run.stdout)).toContain(`npm run authorize -- --store file --token-file ${tokenFile}`);
    expectNoSecret(run);
  });

  it("without --token-file: keeps the config's file, else writes the plugin's default one, checked under HOME", async () => {
    const { config, tokenFile, base } = paths("ready");
    const kept = await setup(...base, "--credentials", "token-file");
    expect(kept.code, kept.stderr).toBe(0);
    expect(await pluginConfig(config)).toEqual({ credentialStore: "token-file", tokenFile, ...debriefDefaults });
    expect(credentialsSection(kept.stdout)).toContain("kept: it already is what --credentials token-file asks");

    const fresh = paths("default-file");
    const run = await setup(...fresh.base, "--credentials", "token-file");
    expect(run.code, run.stderr).toBe(0);
    expect(await pluginConfig(fresh.config)).toEqual({
      credentialStore: "token-file",
      tokenFile: "~/.config/openclaw-fitness/strava-tokens.json",
      ...debriefDefaults,
    });
    const resolved = path.join(home, ".config/openclaw-fitness/strava-tokens.json");
    expect(credentialsSection(run.stdout)).toContain(
      `WARNING ${resolved} does not exist yet. Fix it with:\n    npm run authorize -- --store file --token-file ~/.config/openclaw-fitness/strava-tokens.json`,
    );
    await authorizedFile(resolved);
    const again = await setup(...fresh.base);
    expect(credentialsSection(again.stdout)).toContain(`check: ${resolved} exists, mode 0600`);
  });

  it("--dry-run says what it would write and writes nothing", async () => {
    const { config, tokenFile, base } = paths("dry");
    const run = await setup(...base, "--credentials", "token-file", "--token-file", tokenFile, "--dry-run");
    expect(run.code, run.stderr).toBe(0);
    expect(credentialsSection(run.stdout)).toContain("would be added, as --credentials token-file asked");
    await expect(stat(config)).rejects.toThrow(/ENOENT/);
  });
});

describe("setup:coach --credentials secrets-manager, and the default", () => {
  it("without --credentials a new config keeps the plugin's default, the secret, and says how to fill it or switch", async () => {
    const { config, base } = paths("default-secret");
    const run = await setup(...base);
    expect(run.code, run.stderr).toBe(0);
    expect(await pluginConfig(config)).toEqual({ secretName: "fitness-credentials", cloudRegion: "us-west-2", ...debriefDefaults });
    const section = credentialsSection(run.stdout);
    expect(section).toContain(
      'the plugin reads the Strava credentials from the AWS Secrets Manager secret "fitness-credentials" in us-west-2 (credentialStore not set: the plugin\'s default)',
    );
    expect(section).toContain("not set: the plugin's default (run setup with --credentials token-file to use a local token file instead)");
    expect(run.stdout).toContain("npm run authorize -- --store secrets-manager --secret-name fitness-credentials --region us-west-2");
    expect(run.stdout).toMatch(/No AWS account on this host\? Run this setup\s+again with --credentials token-file/);
  });

  it("replaces a token file choice (backup first), keeps the operator's secret name, and a rerun keeps the secret", async () => {
    const { config, tokenFile, base } = paths("switch");
    await mkdir(path.dirname(config), { recursive: true });
    await writeFile(
      config,
      JSON.stringify({
        plugins: {
          entries: { fitness: { enabled: true, config: { credentialStore: "token-file", tokenFile, secretName: "team/strava" } } },
        },
      }),
    );
    const run = await setup(...base, "--credentials", "secrets-manager");
    expect(run.code, run.stderr).toBe(0);
    expect(await pluginConfig(config)).toEqual({
      ...debriefDefaults,
      credentialStore: "secrets-manager",
      tokenFile,
      secretName: "team/strava",
      cloudRegion: "us-west-2",
    });
    expect(run.stdout).toContain('~ plugins.entries.fitness.config.credentialStore: "token-file" -> "secrets-manager"');
    expect(await backupsOf(config)).toHaveLength(1);
    const section = credentialsSection(run.stdout);
    expect(section).toContain(
      `changed from credentialStore "token-file", tokenFile "${tokenFile}", as --credentials secrets-manager asked`,
    );
    expect(section).toContain('the plugin reads the Strava credentials from the AWS Secrets Manager secret "team/strava" in us-west-2');
    expect(section).not.toContain("check:");

    const rerun = await setup(...base);
    expect(rerun.stdout).toContain("no changes: the coach is already configured");
    expect(credentialsSection(rerun.stdout)).toContain("kept: already in the config");
    expect(await pluginConfig(config)).toEqual({
      ...debriefDefaults,
      credentialStore: "secrets-manager",
      tokenFile,
      secretName: "team/strava",
      cloudRegion: "us-west-2",
    });

    const back = await setup(...base, "--credentials", "token-file");
    expect(await pluginConfig(config)).toMatchObject({ credentialStore: "token-file", tokenFile });
    expect(credentialsSection(back.stdout)).toContain('changed from credentialStore "secrets-manager", tokenFile');
  });
});

describe("setup:coach credential options that cannot work", () => {
  it("refuses an unknown store, --token-file without --credentials token-file, and a relative token file, writing nothing", async () => {
    const { config, base } = paths("usage");
    const unknown = await setup(...base, "--credentials", "aws");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--credentials must be one of secrets-manager, token-file; got "aws"/);
    expect(unknown.stderr).toMatch(/Usage: npm run setup:coach/);
    for (const args of [
      ["--token-file", "/tmp/x.json"],
      ["--credentials", "secrets-manager", "--token-file", "/tmp/x.json"],
    ]) {
      const stray = await setup(...base, ...args);
      expect(stray.code).toBe(2);
      expect(stray.stderr).toMatch(/--token-file only applies with --credentials token-file/);
    }
    const relative = await setup(...base, "--credentials", "token-file", "--token-file", "tokens.json");
    expect(relative.code).toBe(1);
    expect(relative.stderr).toMatch(
      /--token-file must be an absolute path, or one under your home folder starting with ~\/.*got "tokens.json"/,
    );
    await expect(stat(config)).rejects.toThrow(/ENOENT/);
  });

  it("checkTokenFile: a folder is not a token file", async () => {
    const folder = path.join(scratch, "a-folder");
    await mkdir(folder, { recursive: true });
    expect(checkTokenFile(folder)).toMatchObject({ ok: false, finding: `${folder} is not a regular file` });
  });
});
