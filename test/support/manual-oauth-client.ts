/**
 * An OAuth client done by hand (plain fetch), for the tests that send what real client libraries never
 * would: it registers, builds authorization URLs with PKCE, and calls the token and revocation
 * endpoints with whatever parameters a test gives. Over the network by default; a test of the server in its own
 * process gives its `fetch` (test/support/oauth-in-process.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { HeadlessUserAgent } from "./oauth-user-agent.ts";

export const manualRedirectUri = "http://127.0.0.1:47615/cb";

export class ManualOAuthClient {
  readonly issuer: string;
  readonly resource: string;
  clientId = "";
  readonly userAgent: HeadlessUserAgent;
  readonly #fetch: typeof fetch;

  constructor(issuer: string, options: { fetch?: typeof fetch } = {}) {
    this.issuer = issuer;
    this.resource = `${issuer}/mcp`;
    this.#fetch = options.fetch ?? fetch;
    this.userAgent = new HeadlessUserAgent(this.#fetch);
  }

  async register(metadata: Record<string, unknown> = {}): Promise<void> {
    const response = await this.#fetch(`${this.issuer}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Manual client",
        redirect_uris: [manualRedirectUri],
        token_endpoint_auth_method: "none",
        ...metadata,
      }),
    });
    if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
    this.clientId = ((await response.json()) as { client_id: string }).client_id;
  }

  pkce(): { verifier: string; challenge: string } {
    const verifier = randomBytes(32).toString("base64url");
    return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
  }

  authorizeUrl(params: Record<string, string | null>): URL {
    const url = new URL(`${this.issuer}/authorize`);
    const defaults: Record<string, string | null> = {
      client_id: this.clientId,
      redirect_uri: manualRedirectUri,
      response_type: "code",
      code_challenge_method: "S256",
      resource: this.resource,
      state: "state-1",
      scope: "fitness:read fitness:write",
    };
    for (const [key, value] of Object.entries({ ...defaults, ...params })) if (value !== null) url.searchParams.set(key, value);
    return url;
  }

  /** A full sign-in: the code and the verifier it needs. */
  async code(): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = this.pkce();
    const outcome = await this.userAgent.authorize(this.authorizeUrl({ code_challenge: challenge }), { redirectUri: manualRedirectUri });
    const code = outcome.callback?.searchParams.get("code");
    if (!code) throw new Error(`no code: ${JSON.stringify(outcome).slice(0, 1500)}`);
    return { code, verifier };
  }

  async token(
    params: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await this.#fetch(`${this.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ client_id: this.clientId, ...params }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async exchange(
    code: string,
    verifier: string,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    return this.token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: manualRedirectUri,
      resource: this.resource,
      ...extra,
    });
  }
}
