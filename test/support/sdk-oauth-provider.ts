/**
 * The MCP SDK client's OAuth support driven as a real client app would, with the user agent standing
 * in for the browser: an `OAuthClientProvider` that keeps its client information, tokens, PKCE verifier
 * and discovery state in memory, and whose `redirectToAuthorization` runs the headless user agent and
 * keeps where it ended (the callback to finish, or the page it stopped at). Its user agent goes over the network
 * unless given the `fetch` of a server in the test's own process (test/support/oauth-in-process.ts).
 */
import type { OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { HeadlessUserAgent, type UserAgentOutcome } from "./oauth-user-agent.ts";

export class RecordingOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl = "http://127.0.0.1:47613/oauth/callback";
  readonly clientMetadataUrl: string | undefined;
  readonly userAgent: HeadlessUserAgent;
  outcome: UserAgentOutcome | undefined;
  /** The consent page the user agent was shown last. */
  consentHtml = "";
  decision: "allow" | "deny" = "allow";
  allowWrite = true;
  #client: Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>;
  #tokens: Awaited<ReturnType<OAuthClientProvider["tokens"]>>;
  #verifier = "";
  #discovery: OAuthDiscoveryState | undefined;
  readonly savedTokens: NonNullable<Awaited<ReturnType<OAuthClientProvider["tokens"]>>>[] = [];

  constructor(options: { clientMetadataUrl?: string; fetch?: typeof fetch } = {}) {
    this.clientMetadataUrl = options.clientMetadataUrl;
    this.userAgent = new HeadlessUserAgent(options.fetch);
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Test Coach App",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation() {
    return this.#client;
  }
  saveClientInformation(info: NonNullable<Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>>): void {
    this.#client = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: NonNullable<Awaited<ReturnType<OAuthClientProvider["tokens"]>>>): void {
    this.#tokens = tokens;
    this.savedTokens.push(tokens);
  }
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.outcome = await this.userAgent.authorize(authorizationUrl, {
      redirectUri: this.redirectUrl,
      decision: this.decision,
      allowWrite: this.allowWrite,
      beforeConsent: (html) => {
        this.consentHtml = html;
      },
    });
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    return this.#verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") this.#tokens = undefined;
    if (scope === "all" || scope === "client") this.#client = undefined;
  }
  /** Replaces the stored access token (tests hand the client an expired, foreign or revoked one). */
  replaceAccessToken(accessToken: string): void {
    if (this.#tokens) this.#tokens = { ...this.#tokens, access_token: accessToken };
  }
}
