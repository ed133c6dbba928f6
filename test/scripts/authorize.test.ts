/**
 * The operator's authorize command end to end: the sandbox's authorize page (which approves at once)
 * redirects to our callback on 127.0.0.1, the code is exchanged at the sandbox's token endpoint, and
 * the result lands in a Secrets Manager secret (moto_server) or the token file. The test plays the
 * browser with fetch.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateSecretCommand, GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { startMotoServer, type MotoServer } from "../support/moto-server.ts";
import {
  AuthorizeUsageError,
  parseAuthorizeOptions,
  type AuthorizeOptions,
  type CredentialTarget,
  type RevokeOptions,
} from "../../scripts/authorize/authorize-options.ts";
import { runAuthorize, runRevoke } from "../../scripts/authorize/run-authorize.ts";
import { AuthorizationError } from "../../scripts/authorize/oauth-authorization.ts";
import { registerPlugin, textOf } from "../plugin/recording-host-api.ts";

let moto: MotoServer;
let sandbox: RunningSandbox;
let secrets: SecretsManagerClient;
let directory: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  moto = await startMotoServer();
  Object.assign(process.env, moto.env);
  sandbox = await startSandbox();
  secrets = new SecretsManagerClient({ region: "us-west-2" });
  directory = await mkdtemp(join(tmpdir(), "fitness-authorize-"));
});

afterAll(async () => {
  secrets?.destroy();
  await sandbox?.close();
  await moto?.stop();
  if (directory) await rm(directory, { recursive: true, force: true });
  process.env = savedEnv;
});

function optionsFor(upstream: RunningSandbox, target: CredentialTarget, overrides: Partial<AuthorizeOptions> = {}): AuthorizeOptions {
  return {
    clientId: upstream.clientId,
    clientSecret: upstream.clientSecret,
    target,
    authorizeUrl: upstream.authorizeUrl,
    tokenUrl: upstream.tokenUrl,
    revokeUrl: upstream.revokeUrl,
    port: 0,
    timeoutMs: 10_000,
    ...overrides,
  };
}

interface Run {
  outcome: Promise<unknown>;
  printed: string[];
  /** The browser's last page: status and text. */
  page: Promise<{ status: number; text: string }>;
}

/**
 * Starts the command and plays the browser: opens the printed URL, lets `browse` decide what to
 * do with it (default: follow Strava's redirect back to the callback).
 */
function authorizeWithBrowser(options: AuthorizeOptions, browse: (url: string) => Promise<Response> = (url) => fetch(url)): Run {
  const printed: string[] = [];
  let openPage!: (url: string) => void;
  const urlPrinted = new Promise<string>((resolve) => (openPage = resolve));
  const outcome = runAuthorize(options, {
    print(line) {
      printed.push(line);
      const url = /https?:\/\/\S+/.exec(line)?.[0];
      if (url) openPage(url);
    },
  });
  outcome.catch(() => {});
  const page = urlPrinted.then(async (url) => {
    const response = await browse(url);
    return { status: response.status, text: await response.text() };
  });
  return { outcome, printed, page };
}

async function readSecret(name: string): Promise<Record<string, unknown>> {
  const answer = await secrets.send(new GetSecretValueCommand({ SecretId: name, VersionStage: "AWSCURRENT" }));
  return JSON.parse(answer.SecretString ?? "null") as Record<string, unknown>;
}

async function secretExists(name: string): Promise<boolean> {
  try {
    await readSecret(name);
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === "ResourceNotFoundException") return false;
    throw error;
  }
}

describe("npm run authorize against the sandbox", () => {
  it("creates the Secrets Manager secret, and the plugin works with it straight away", async () => {
    const run = authorizeWithBrowser(optionsFor(sandbox, { kind: "secrets-manager", secretName: "authorized-new", region: "us-west-2" }));
    const page = await run.page;
    await run.outcome;
    expect(page.status).toBe(200);
    expect(page.text).toContain("The Strava tokens are stored");
    const stored = await readSecret("authorized-new");
    expect(Object.keys(stored).sort()).toEqual(["access_token", "client_id", "client_secret", "expires_at", "refresh_token"]);
    expect(stored).toMatchObject({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret });
    expect(stored["expires_at"]).toBeGreaterThan(Date.now() / 1000 + 5 * 3600);

    const printedText = run.printed.join("\n");
    expect(printedText).toContain(
      'Stored client_id, client_secret, refresh_token, access_token and expires_at in the Secrets Manager secret "authorized-new" in us-west-2.',
    );
    expect(printedText).toMatch(/Authorized .+ \(athlete \d+\) with scopes read,activity:read_all,activity:write,profile:read_all\./);
    for (const value of [stored["access_token"], stored["refresh_token"], sandbox.clientSecret] as string[]) {
      expect(printedText).not.toContain(value);
      expect(page.text).not.toContain(value);
    }

    process.env["STRAVA_API_BASE"] = sandbox.apiBase;
    process.env["STRAVA_TOKEN_URL"] = sandbox.tokenUrl;
    const plugin = registerPlugin({ secretName: "authorized-new", cloudRegion: "us-west-2" });
    const athlete = await plugin.invoke("fitness_get_athlete");
    expect(athlete.isError).toBeUndefined();
    expect((JSON.parse(textOf(athlete)) as { id: number }).id).toBe(sandbox.athleteId);
  });

  it("sends Strava's authorize parameters: all four scopes, approval_prompt=auto, a random state, a 127.0.0.1 callback", async () => {
    let seen: URL | undefined;
    const run = authorizeWithBrowser(optionsFor(sandbox, { kind: "token-file", path: join(directory, "params.json") }), (url) => {
      seen = new URL(url);
      return fetch(url);
    });
    await run.page;
    await run.outcome;
    expect(seen?.origin + (seen?.pathname ?? "")).toBe(sandbox.authorizeUrl);
    expect(seen?.searchParams.get("scope")).toBe("read,activity:read_all,activity:write,profile:read_all");
    expect(seen?.searchParams.get("approval_prompt")).toBe("auto");
    expect(seen?.searchParams.get("response_type")).toBe("code");
    expect(seen?.searchParams.get("client_id")).toBe(sandbox.clientId);
    expect(seen?.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(seen?.searchParams.get("state")).toMatch(/^[\w-]{32}$/);
  });

  it("updates an existing secret, keeping fields it does not own", async () => {
    await secrets.send(
      new CreateSecretCommand({
        Name: "authorized-existing",
        SecretString: JSON.stringify({ client_id: "old-id", client_secret: "old-secret", refresh_token: "old-refresh", note: "keep me" }),
      }),
    );
    const run = authorizeWithBrowser(
      optionsFor(sandbox, { kind: "secrets-manager", secretName: "authorized-existing", region: "us-west-2" }),
    );
    await run.page;
    await run.outcome;
    const stored = await readSecret("authorized-existing");
    expect(stored).toMatchObject({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, note: "keep me" });
    expect(stored["refresh_token"]).not.toBe("old-refresh");
  });

  it("writes the token file with mode 0600", async () => {
    const path = join(directory, "nested", "strava-tokens.json");
    const run = authorizeWithBrowser(optionsFor(sandbox, { kind: "token-file", path }));
    await run.page;
    await run.outcome;
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(stored).toMatchObject({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret });
    expect(typeof stored["refresh_token"]).toBe("string");
    expect(typeof stored["access_token"]).toBe("string");
    expect(typeof stored["expires_at"]).toBe("number");
    expect(run.printed.join("\n")).toContain(`in the token file ${path}.`);
  });

  it("refuses a grant with unticked scopes, names them, and stores nothing", async () => {
    const stingy = await startSandbox({ grantedScopes: ["read", "activity:read_all", "profile:read_all"] });
    try {
      const run = authorizeWithBrowser(
        optionsFor(stingy, { kind: "secrets-manager", secretName: "authorized-stingy", region: "us-west-2" }),
      );
      const page = await run.page;
      await expect(run.outcome).rejects.toThrow(AuthorizationError);
      await expect(run.outcome).rejects.toThrow(/did not grant activity:write \(granted: read,activity:read_all,profile:read_all\)/);
      expect(page.status).toBe(400);
      expect(page.text).toContain("did not grant activity:write");
      expect(stingy.counters().tokenRequests).toBe(0);
      expect(await secretExists("authorized-stingy")).toBe(false);
    } finally {
      await stingy.close();
    }
  });

  it("refuses a callback whose state is not the one it sent, and stores nothing", async () => {
    const path = join(directory, "forged.json");
    const run = authorizeWithBrowser(optionsFor(sandbox, { kind: "token-file", path }), async (url) => {
      const redirect = await fetch(url, { redirect: "manual" });
      const callback = new URL(redirect.headers.get("location") ?? "");
      callback.searchParams.set("state", "forged-state-forged-state-forged-1");
      return fetch(callback);
    });
    const page = await run.page;
    await expect(run.outcome).rejects.toThrow(/state does not match/);
    expect(page.status).toBe(400);
    await expect(stat(path)).rejects.toThrow();
  });

  it("reports an athlete who pressed Cancel", async () => {
    const run = authorizeWithBrowser(optionsFor(sandbox, { kind: "token-file", path: join(directory, "declined.json") }), async (url) => {
      const state = new URL(url).searchParams.get("state") ?? "";
      const callback = new URL(new URL(url).searchParams.get("redirect_uri") ?? "");
      callback.searchParams.set("state", state);
      callback.searchParams.set("error", "access_denied");
      return fetch(callback);
    });
    await run.page;
    await expect(run.outcome).rejects.toThrow(/answered "access_denied" instead of a code/);
  });

  it("reports a wrong client secret without echoing it", async () => {
    const run = authorizeWithBrowser(
      optionsFor(sandbox, { kind: "token-file", path: join(directory, "bad-secret.json") }, { clientSecret: "wrong-secret-value-8812" }),
    );
    const page = await run.page;
    const error = await run.outcome.catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as Error).message).toMatch(
      /token endpoint refused the code: 400 .*client_secret invalid.*Check STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET/,
    );
    expect((error as Error).message).not.toContain("wrong-secret-value-8812");
    expect(page.text).not.toContain("wrong-secret-value-8812");
  });

  it("gives up after the timeout with a clear message", async () => {
    const printed: string[] = [];
    await expect(
      runAuthorize(optionsFor(sandbox, { kind: "token-file", path: join(directory, "late.json") }, { timeoutMs: 200 }), {
        print: (line) => printed.push(line),
      }),
    ).rejects.toThrow(/No answer from Strava's authorization page within 0.2 s/);
  });

  it("runs as a command: prints the URL, exits 0 once the browser came back, prints no secret", async () => {
    const path = join(directory, "cli.json");
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/authorize.ts", "--store", "file", "--token-file", path], {
      cwd: new URL("../../", import.meta.url),
      env: {
        ...process.env,
        STRAVA_CLIENT_ID: sandbox.clientId,
        STRAVA_CLIENT_SECRET: sandbox.clientSecret,
        STRAVA_AUTHORIZE_URL: sandbox.authorizeUrl,
        STRAVA_TOKEN_URL: sandbox.tokenUrl,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /https?:\/\/\S+/.exec(stdout);
        if (match) resolve(match[0]);
      });
      child.on("exit", () => reject(new Error(`exited before printing a URL: ${stderr}`)));
    });
    expect((await fetch(url)).status).toBe(200);
    expect(await exited).toBe(0);
    const stored = JSON.parse(await readFile(path, "utf8")) as Record<string, string>;
    for (const value of [stored["access_token"], stored["refresh_token"], sandbox.clientSecret]) {
      expect(stdout + stderr).not.toContain(value);
    }
    expect(stdout).toContain(`in the token file ${path}.`);
  });
});

describe("npm run authorize -- --revoke", () => {
  const revokeOptions = (target: CredentialTarget, overrides: Partial<RevokeOptions> = {}): RevokeOptions => ({
    revoke: true,
    clientId: undefined,
    clientSecret: undefined,
    target,
    revokeUrl: sandbox.revokeUrl,
    timeoutMs: 10_000,
    ...overrides,
  });

  async function authorized(target: CredentialTarget): Promise<void> {
    const run = authorizeWithBrowser(optionsFor(sandbox, target));
    await run.page;
    await run.outcome;
  }

  it("revokes the grant in the secret at Strava, clears its tokens, and the plugin then says to authorize again", async () => {
    const target: CredentialTarget = { kind: "secrets-manager", secretName: "to-revoke", region: "us-west-2" };
    await authorized(target);
    const granted = await readSecret("to-revoke");
    expect(sandbox.acceptsRefreshToken(granted["refresh_token"] as string)).toBe(true);
    const printed: string[] = [];
    expect(await runRevoke(revokeOptions(target), { print: (line) => printed.push(line) })).toBe("revoked");
    expect(sandbox.acceptsRefreshToken(granted["refresh_token"] as string)).toBe(false);
    const cleared = await readSecret("to-revoke");
    expect(cleared).toEqual({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, revoked_at: expect.any(String) });
    expect(printed.join("\n")).toContain(
      'Removed refresh_token, access_token and expires_at from the Secrets Manager secret "to-revoke" in us-west-2 (client_id and client_secret stay).',
    );
    expect(printed.join("\n")).not.toContain(granted["refresh_token"] as string);

    process.env["STRAVA_API_BASE"] = sandbox.apiBase;
    process.env["STRAVA_TOKEN_URL"] = sandbox.tokenUrl;
    const plugin = registerPlugin({ secretName: "to-revoke", cloudRegion: "us-west-2" });
    const result = await plugin.invoke("fitness_get_athlete");
    // Said as what happened: revoked, not a secret someone left incomplete.
    expect(textOf(result)).toContain(
      `holds no Strava grant: it was revoked at ${String(cleared["revoked_at"])} (npm run authorize -- --revoke). To serve the athlete again, authorize again (npm run authorize does this).`,
    );
    expect(textOf(result)).not.toContain("incomplete");
    expect(plugin.logs.some((line) => line.level === "error" && line.message.includes('"event":"credentials_need_authorization"'))).toBe(
      true,
    );
    // A second revocation has nothing to revoke and changes nothing.
    expect(await runRevoke(revokeOptions(target), { print: () => {} })).toBe("nothing stored");
  });

  it("a secret or token file that does not exist is named as such (a typo must not read as nothing to revoke)", async () => {
    await expect(
      runRevoke(revokeOptions({ kind: "secrets-manager", secretName: "no-such-secret", region: "us-west-2" }), { print: () => {} }),
    ).rejects.toThrow(
      'The Secrets Manager secret "no-such-secret" in us-west-2 does not exist, so its grant cannot be revoked: check the secret\'s name and region (--secret-name, --region). Nothing was changed.',
    );
    const path = join(directory, "no-such-file.json");
    await expect(runRevoke(revokeOptions({ kind: "token-file", path }), { print: () => {} })).rejects.toThrow(
      `does not exist, so its grant cannot be revoked: check the path (--token-file). Nothing was changed.`,
    );
  });

  it("a revocation Strava refuses changes nothing in the store", async () => {
    const path = join(directory, "revoke-refused.json");
    await authorized({ kind: "token-file", path });
    const before = await readFile(path, "utf8");
    await expect(
      runRevoke(revokeOptions({ kind: "token-file", path }, { clientSecret: "not-the-secret" }), { print: () => {} }),
    ).rejects.toThrow("Strava's revocation endpoint refused the application credentials: 401 Authorization Error");
    expect(await readFile(path, "utf8")).toBe(before);
    expect(sandbox.acceptsRefreshToken((JSON.parse(before) as { refresh_token: string }).refresh_token)).toBe(true);
  });

  it("says only what stays: a token file the STRAVA_* variables fed holds no client_id or client_secret, and is not said to keep them", async () => {
    const path = join(directory, "revoke-env-fed.json");
    await authorized({ kind: "token-file", path });
    // The shape the MCP server writes beside STRAVA_CLIENT_ID/SECRET/REFRESH_TOKEN: the tokens only.
    const { client_id: _id, client_secret: _secret, ...tokens } = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    await writeFile(path, JSON.stringify(tokens), { mode: 0o600 });
    const printed: string[] = [];
    const options = revokeOptions({ kind: "token-file", path }, { clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
    expect(await runRevoke(options, { print: (line) => printed.push(line) })).toBe("revoked");
    expect(printed.join("\n")).toContain(`from the token file ${path} (it held no client_id or client_secret).`);
    expect(printed.join("\n")).not.toMatch(/stays?\b/);
    expect(Object.keys(JSON.parse(await readFile(path, "utf8")) as object).sort()).toEqual(["revoked_at", "updated_at"]);
  });

  it("runs as a command on the token file: exit 0, the grant revoked, the file cleared, no secret printed", async () => {
    const path = join(directory, "revoke-cli.json");
    await authorized({ kind: "token-file", path });
    const granted = JSON.parse(await readFile(path, "utf8")) as Record<string, string>;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/authorize.ts", "--revoke", "--store", "file", "--token-file", path],
      {
        cwd: new URL("../../", import.meta.url),
        env: { ...process.env, STRAVA_CLIENT_ID: "", STRAVA_CLIENT_SECRET: "", STRAVA_TOKEN_URL: sandbox.tokenUrl },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code, output).toBe(0);
    expect(output).toContain("Strava revoked the athlete's grant");
    for (const value of [granted["refresh_token"], granted["access_token"], sandbox.clientSecret]) expect(output).not.toContain(value);
    expect(sandbox.acceptsRefreshToken(granted["refresh_token"]!)).toBe(false);
    const cleared = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    expect(cleared).toMatchObject({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret });
    expect(cleared).not.toHaveProperty("refresh_token");
  });
});

describe("authorize options", () => {
  const env = { STRAVA_CLIENT_ID: "123", STRAVA_CLIENT_SECRET: "s3cret" };

  it("defaults: secret fitness-credentials in AWS_REGION or us-west-2, Strava's URLs, a free port, 300 s", () => {
    expect(parseAuthorizeOptions(["--store", "secrets-manager"], env)).toEqual({
      clientId: "123",
      clientSecret: "s3cret",
      target: { kind: "secrets-manager", secretName: "fitness-credentials", region: "us-west-2" },
      authorizeUrl: "https://www.strava.com/oauth/authorize",
      tokenUrl: "https://www.strava.com/oauth/token",
      revokeUrl: "https://www.strava.com/oauth/revoke",
      port: 0,
      timeoutMs: 300_000,
    });
    expect(parseAuthorizeOptions(["--store", "secrets-manager"], { ...env, AWS_REGION: "eu-west-1" })).toMatchObject({
      target: { region: "eu-west-1" },
    });
  });

  it("takes flags over the environment, and the token file from FITNESS_TOKEN_FILE", () => {
    expect(
      parseAuthorizeOptions(["--store", "file", "--client-id", "9", "--client-secret", "x", "--port", "8765", "--timeout", "60"], {
        ...env,
        FITNESS_TOKEN_FILE: "/tmp/t.json",
        STRAVA_AUTHORIZE_URL: "http://127.0.0.1:8900/oauth/authorize",
      }),
    ).toMatchObject({
      clientId: "9",
      clientSecret: "x",
      target: { kind: "token-file", path: "/tmp/t.json" },
      port: 8765,
      timeoutMs: 60_000,
      authorizeUrl: "http://127.0.0.1:8900/oauth/authorize",
    });
  });

  it("a --token-file under ~/ that the shell left unexpanded (quoted) is in the home folder, not a folder named ~", () => {
    const home = { ...env, HOME: "/home/athlete" };
    expect(parseAuthorizeOptions(["--store", "file", "--token-file", "~/.config/openclaw-fitness/strava-tokens.json"], home)).toMatchObject(
      {
        target: { kind: "token-file", path: "/home/athlete/.config/openclaw-fitness/strava-tokens.json" },
      },
    );
    expect(parseAuthorizeOptions(["--store", "file", "--token-file", "./~/t.json"], home)).toMatchObject({
      target: { kind: "token-file", path: "./~/t.json" },
    });
  });

  it("--revoke: the application's credentials may come from the store; the revocation URL sits beside the token URL", () => {
    expect(
      parseAuthorizeOptions(["--revoke", "--store", "file", "--token-file", "/tmp/t.json"], {
        STRAVA_TOKEN_URL: "http://127.0.0.1:8900/oauth/token",
      }),
    ).toEqual({
      revoke: true,
      clientId: undefined,
      clientSecret: undefined,
      target: { kind: "token-file", path: "/tmp/t.json" },
      revokeUrl: "http://127.0.0.1:8900/oauth/revoke",
      timeoutMs: 30_000,
    });
    expect(
      parseAuthorizeOptions(["--revoke", "--store", "secrets-manager"], { ...env, STRAVA_REVOKE_URL: "http://127.0.0.1:1/x" }),
    ).toMatchObject({
      clientId: "123",
      revokeUrl: "http://127.0.0.1:1/x",
    });
  });

  it.each([
    [["--revoke", "--store", "file", "--port", "1"], env, /--port applies to an authorization, not to --revoke/],
    [["--revoke", "--store", "file"], { STRAVA_REVOKE_URL: "strava" }, /STRAVA_REVOKE_URL must be an absolute http\(s\) URL/],
    [[], env, /--store is required: use --store secrets-manager .* or --store file/],
    [["--store", "vault"], env, /Unknown --store "vault"/],
    [["--store", "file"], {}, /Set STRAVA_CLIENT_ID \(or --client-id\) and STRAVA_CLIENT_SECRET \(or --client-secret\)/],
    [["--store", "file", "--secret-name", "x"], env, /--secret-name and --region apply to --store secrets-manager only/],
    [["--store", "secrets-manager", "--token-file", "x"], env, /--token-file applies to --store file only/],
    [["--store", "secrets-manager", "--region", "Oregon"], env, /--region must be an AWS region such as us-west-2; got "Oregon"/],
    [["--store", "file", "--port", "70000"], env, /--port must be a whole number from 0 to 65535; got "70000"/],
    [["--store", "file", "--bogus"], env, /Unknown option '--bogus'/],
    [["--store", "file"], { ...env, STRAVA_AUTHORIZE_URL: "strava" }, /STRAVA_AUTHORIZE_URL must be an absolute http\(s\) URL/],
    [["--store", "file"], { ...env, STRAVA_TOKEN_URL: "ftp://x" }, /STRAVA_TOKEN_URL must use http or https/],
  ])("rejects %j with a message saying what to pass", (argv, environment, message) => {
    expect(() => parseAuthorizeOptions(argv, environment)).toThrow(AuthorizeUsageError);
    expect(() => parseAuthorizeOptions(argv, environment)).toThrow(message);
  });
});
