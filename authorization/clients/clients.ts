/**
 * Who a client is: a `client_id` that is an https URL is a Client ID Metadata Document (fetched, see
 * client-metadata-document.ts), preferred by the current MCP specification; any other client_id must
 * have been registered here (dynamic registration, registration-endpoint.ts), the fallback for clients
 * that do not publish a document. Errors never quote the client_id: they are shown on this server's pages.
 *
 * Client authentication at the token and revocation endpoints: public clients (documents, and
 * registrations with `token_endpoint_auth_method: none`) send only `client_id` and prove themselves
 * with PKCE; confidential registrations send their secret by HTTP Basic or in the form, compared by
 * SHA-256 in constant time.
 */
import { ClientMetadataError, isClientMetadataUrl, type ClientMetadataFetcher } from "./client-metadata-document.ts";
import { declaredScopes } from "../tokens/scopes.ts";
import type { RegisteredClient, RegistrationStore } from "../stores/registration-store.ts";
import { OAuthRequestError } from "../endpoints/oauth-answers.ts";
import { secretsMatch, sha256Hex } from "../../common/digests.ts";

export interface KnownClient {
  clientId: string;
  /** As the client calls itself, for the consent page (undefined when it gave no name). */
  name: string | undefined;
  redirectUris: string[];
  /** "document": identified by its metadata document (the name comes from the client's own host). */
  kind: "document" | "registered";
  /** The most it may be granted, as it registered (or its document declares); undefined: no limit. */
  scopes: string[] | undefined;
  authMethod: RegisteredClient["token_endpoint_auth_method"];
  secretSha256: string | undefined;
  /** An unused registration whose first sign-in has not started (the authorization endpoint marks its start). */
  firstSignIn: boolean;
}

export class ClientDirectory {
  readonly #registrations: Pick<RegistrationStore, "getClient">;
  readonly #documents: ClientMetadataFetcher;

  constructor(registrations: Pick<RegistrationStore, "getClient">, documents: ClientMetadataFetcher) {
    this.#registrations = registrations;
    this.#documents = documents;
  }

  /**
   * The client, or an OAuthRequestError (invalid_client / invalid_request) saying why not. `address` is the
   * request's client address: what fetching a metadata document is counted against.
   */
  async find(clientId: string | null | undefined, signal: AbortSignal, address?: string): Promise<KnownClient> {
    if (!clientId) throw new OAuthRequestError("invalid_request", "client_id is missing.");
    if (clientId.length > 2_000) throw new OAuthRequestError("invalid_client", "client_id is too long.");
    if (isClientMetadataUrl(clientId)) {
      try {
        const document = await this.#documents.fetch(clientId, address);
        return {
          clientId,
          name: document.client_name,
          redirectUris: document.redirect_uris,
          kind: "document",
          scopes: declaredScopes(document.scope),
          authMethod: "none",
          secretSha256: undefined,
          firstSignIn: false,
        };
      } catch (error) {
        if (error instanceof ClientMetadataError) throw new OAuthRequestError("invalid_client", error.message);
        throw error;
      }
    }
    if (clientId.startsWith("http:") || clientId.startsWith("https:")) {
      throw new OAuthRequestError(
        "invalid_client",
        "The client_id is a URL but not an https URL with a path, so it cannot be a client metadata document.",
      );
    }
    const registered = await this.#registrations.getClient(clientId, signal);
    if (registered === undefined) {
      throw new OAuthRequestError(
        "invalid_client",
        "This client_id is not registered here (or its registration expired). Register again at the registration endpoint, or use a client metadata document URL as client_id.",
      );
    }
    return {
      clientId,
      name: registered.client_name,
      redirectUris: registered.redirect_uris,
      kind: "registered",
      scopes: declaredScopes(registered.scope),
      authMethod: registered.token_endpoint_auth_method,
      secretSha256: registered.client_secret_sha256,
      firstSignIn: registered.unused_seq !== undefined && registered.sign_in_until === undefined,
    };
  }

  /**
   * The client a token or revocation request comes from, authenticated as it registered. Failures are
   * invalid_client (answered 401).
   */
  async authenticate(form: URLSearchParams, authorization: string | null, signal: AbortSignal, address?: string): Promise<KnownClient> {
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "");
    let clientId = form.get("client_id");
    let secret = form.get("client_secret");
    let method: RegisteredClient["token_endpoint_auth_method"] = secret === null ? "none" : "client_secret_post";
    if (basic) {
      const decoded = Buffer.from(basic[1] ?? "", "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon < 0) throw new OAuthRequestError("invalid_client", "The Basic authorization header must hold client_id:client_secret.");
      const basicId = safeDecode(decoded.slice(0, colon));
      if (clientId !== null && clientId !== basicId)
        throw new OAuthRequestError("invalid_client", "client_id in the form differs from the one in the Authorization header.");
      if (secret !== null)
        throw new OAuthRequestError(
          "invalid_request",
          "Send the client secret once: in the Authorization header or in the form, not both.",
        );
      clientId = basicId;
      secret = safeDecode(decoded.slice(colon + 1));
      method = "client_secret_basic";
    }
    let client: KnownClient;
    try {
      client = await this.find(clientId, signal, address);
    } catch (error) {
      if (error instanceof OAuthRequestError) throw new OAuthRequestError("invalid_client", error.description);
      throw error;
    }
    if (client.authMethod === "none") {
      if (secret !== null)
        throw new OAuthRequestError(
          "invalid_client",
          "This client is public (token_endpoint_auth_method none): it must not send a client secret.",
        );
      return client;
    }
    if (secret === null)
      throw new OAuthRequestError("invalid_client", `This client authenticates with ${client.authMethod}: the client secret is missing.`);
    if (method !== client.authMethod)
      throw new OAuthRequestError("invalid_client", `This client registered ${client.authMethod}; it sent its secret by ${method}.`);
    if (client.secretSha256 === undefined || !secretsMatch(sha256Hex(secret), client.secretSha256))
      throw new OAuthRequestError("invalid_client", "The client secret is wrong.");
    return client;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
