/**
 * Dynamic client registration (`POST /register`, RFC 7591), the fallback for clients that do not
 * publish a Client ID Metadata Document. The metadata is checked with the MCP SDK's schema, then:
 * redirect URIs must be https, http on a loopback address (native apps, RFC 8252 §7.3), or a private-use
 * scheme of an app in reverse-domain form (`com.example.app:/callback`; the allowlist is
 * clients/redirect-uris.ts); the code flow only; `token_endpoint_auth_method`
 * none, client_secret_basic (RFC 7591's default) or client_secret_post. A confidential client gets a
 * secret, shown once and stored only as its SHA-256. What registration may cost an anonymous caller, and
 * how long an unused registration lives, is registration-limits.ts: the request is checked first, and only
 * a valid one is counted and stored. One that gets tokens is kept while it is used.
 *
 * The name a client registers is its own claim: the consent page marks it as unverified.
 */
import { randomBytes } from "node:crypto";
import { OAuthClientMetadataSchema } from "@modelcontextprotocol/core";
import { BodyTooLargeError, jsonAnswer, OAuthRequestError, oauthErrorAnswer, readBodyText, withCors } from "./oauth-answers.ts";
import type { RateLimitedLog } from "../../common/rate-limited-log.ts";
import { storeSignal } from "../stores/authorization-stores.ts";
import type { CountSlot, RegisteredClient, RegistrationStore } from "../stores/registration-store.ts";
import { checkRedirectUri } from "../clients/redirect-uris.ts";
import { registrationLimits, registrationSource, unusedRegistrationSeconds, type RegistrationPrecheck } from "./registration-limits.ts";
import { parseRequestedScopes, scopeText } from "../tokens/scopes.ts";
import { sha256Hex } from "../../common/digests.ts";

const authMethods = ["none", "client_secret_basic", "client_secret_post"] as const;

/** Client metadata as the MCP SDK's schema reads it (RFC 7591). */
type ClientMetadata = ReturnType<typeof OAuthClientMetadataSchema.parse>;

/** What the registration endpoint works with. */
export interface RegistrationEndpointNeeds {
  registrations: Pick<RegistrationStore, "countRegistration" | "registerClient">;
  /** Where a source's registration count is kept (`registrationCountSlot`, with the signing key). */
  countSlotOf: (source: string) => CountSlot;
  /** This process's count of each source's registrations (refuses before the store is asked). */
  precheck: RegistrationPrecheck;
  /** Registrations, and refused ones: logged at a bounded rate (anonymous callers choose how many). */
  registered: RateLimitedLog;
  refused: RateLimitedLog;
  now: () => number;
  storeTimeoutMs: number;
}

export async function registrationRequest(
  request: Request,
  needs: RegistrationEndpointNeeds,
  clientAddress: string | undefined,
): Promise<Response> {
  const source = registrationSource(clientAddress);
  const nowMs = needs.now();
  const seen = needs.precheck.check(source, nowMs);
  if (!seen.admitted) return tooManyFromSource(seen.retryAfterSeconds, source, needs);
  let client: RegisteredClient;
  let secret: string | undefined;
  try {
    ({ client, secret } = await checkedRegistration(request, nowMs));
  } catch (error) {
    if (!(error instanceof OAuthRequestError)) throw error;
    needs.refused.record(error.code, { message: error.description });
    return withCors(oauthErrorAnswer(error));
  }
  // Only a valid registration is counted: a mistake costs the caller nothing, and the store nothing.
  const counted = await needs.registrations.countRegistration(
    needs.countSlotOf(source),
    registrationLimits.perSourcePerHour,
    nowMs,
    storeSignal(needs.storeTimeoutMs),
  );
  if (!counted.admitted) return tooManyFromSource(counted.retryAfterSeconds, source, needs);
  needs.precheck.count(source, nowMs);
  const placed = await needs.registrations.registerClient(
    client,
    { source, capacity: registrationLimits.unusedCapacity, nowMs },
    storeSignal(needs.storeTimeoutMs),
  );
  if (!placed.placed) {
    needs.refused.record("places_held", {
      source,
      held_by: placed.heldBy === "every place" ? placed.heldBy : placed.heldBy.width,
    });
    const holder =
      placed.heldBy === "every place"
        ? "Every place this server keeps for registrations that have not signed in yet is held by a sign-in in progress"
        : `This network (its ${placed.heldBy.width}) already holds its share of the places this server keeps for registrations that have not signed in yet, each with a sign-in in progress`;
    return withCors(
      jsonAnswer(
        429,
        {
          error: "too_many_requests",
          error_description: `${holder}; register again in ${placed.retryAfterSeconds} s, or reuse a client_id you were given.`,
        },
        { "retry-after": String(placed.retryAfterSeconds) },
      ),
    );
  }
  needs.registered.record(client.token_endpoint_auth_method, {
    client: client.client_id,
    name: client.client_name?.slice(0, 80),
    auth_method: client.token_endpoint_auth_method,
  });
  const { client_secret_sha256: _hash, expires_at: _expires, ...published } = client;
  return withCors(jsonAnswer(201, { ...published, ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}) }));
}

function tooManyFromSource(retryAfterSeconds: number, source: string, needs: RegistrationEndpointNeeds): Response {
  needs.refused.record("rate", { source });
  return withCors(
    jsonAnswer(
      429,
      {
        error: "too_many_requests",
        error_description: `This address registered ${registrationLimits.perSourcePerHour} clients in the last hour, the most this server takes; register again in ${retryAfterSeconds} s, or reuse the client_id you were given.`,
      },
      { "retry-after": String(retryAfterSeconds) },
    ),
  );
}

/** The registration the request asks for, checked; an OAuthRequestError naming the first problem otherwise. */
async function checkedRegistration(request: Request, nowMs: number): Promise<{ client: RegisteredClient; secret: string | undefined }> {
  const metadata = await requestedMetadata(request);
  const redirectUris = metadata.redirect_uris.map(String);
  if (redirectUris.length === 0 || redirectUris.length > 10)
    throw new OAuthRequestError("invalid_redirect_uri", "redirect_uris must list 1 to 10 URIs.");
  for (const uri of redirectUris) checkRedirectUri(uri);
  const method = metadata.token_endpoint_auth_method ?? "client_secret_basic";
  if (!(authMethods as readonly string[]).includes(method)) {
    throw new OAuthRequestError(
      "invalid_client_metadata",
      `token_endpoint_auth_method must be one of ${authMethods.join(", ")}; got ${method}.`,
    );
  }
  const { grantTypes, responseTypes } = codeFlowOnly(metadata);
  const scope = knownScope(metadata.scope);
  if (metadata.client_name !== undefined && metadata.client_name.length > 200)
    throw new OAuthRequestError("invalid_client_metadata", "client_name is longer than 200 characters.");

  const now = Math.floor(nowMs / 1000);
  const secret = method === "none" ? undefined : randomBytes(32).toString("base64url");
  const client: RegisteredClient = {
    client_id: `fc_${randomBytes(16).toString("base64url")}`,
    ...(secret ? { client_secret_sha256: sha256Hex(secret) } : {}),
    client_id_issued_at: now,
    redirect_uris: redirectUris,
    ...(metadata.client_name ? { client_name: metadata.client_name } : {}),
    ...(metadata.client_uri ? { client_uri: String(metadata.client_uri) } : {}),
    token_endpoint_auth_method: method as RegisteredClient["token_endpoint_auth_method"],
    grant_types: grantTypes,
    response_types: responseTypes,
    ...(scope ? { scope } : {}),
    expires_at: now + unusedRegistrationSeconds,
  };
  return { client, secret };
}

/** The body as client metadata (RFC 7591, the MCP SDK's schema): JSON, at most 16 KiB. */
async function requestedMetadata(request: Request): Promise<ClientMetadata> {
  const type = request.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
  if (type !== "application/json")
    throw new OAuthRequestError("invalid_client_metadata", "The registration must be a JSON object (Content-Type: application/json).");
  let json: unknown;
  try {
    json = JSON.parse(await readBodyText(request, 16 * 1024));
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new OAuthRequestError("invalid_client_metadata", error.message);
    throw new OAuthRequestError("invalid_client_metadata", "The body is not valid JSON.");
  }
  const parsed = OAuthClientMetadataSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "metadata"}: ${issue.message}`).join("; ");
    throw new OAuthRequestError(problems.includes("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata", problems);
  }
  return parsed.data;
}

/** The grant and response types, which must be the code flow's (with refresh): no other grant is offered. */
function codeFlowOnly(metadata: ClientMetadata): { grantTypes: string[]; responseTypes: string[] } {
  const grantTypes = metadata.grant_types ?? ["authorization_code", "refresh_token"];
  if (
    !grantTypes.includes("authorization_code") ||
    grantTypes.some((grant) => grant !== "authorization_code" && grant !== "refresh_token")
  ) {
    throw new OAuthRequestError(
      "invalid_client_metadata",
      "grant_types must include authorization_code and may add refresh_token; no other grant is offered.",
    );
  }
  const responseTypes = metadata.response_types ?? ["code"];
  if (responseTypes.some((kind) => kind !== "code"))
    throw new OAuthRequestError("invalid_client_metadata", 'response_types may only be ["code"].');
  return { grantTypes, responseTypes };
}

/** The scope the client registers, in this server's words; undefined when it names none. */
function knownScope(requested: string | undefined): string | undefined {
  if (!requested) return undefined;
  const scopes = parseRequestedScopes(requested);
  if (!scopes.ok)
    throw new OAuthRequestError(
      "invalid_client_metadata",
      `Unknown scope ${scopes.unknown.join(", ")}; this server grants fitness:read and fitness:write.`,
    );
  return scopeText(scopes.scopes);
}
