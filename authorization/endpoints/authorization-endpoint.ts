/**
 * The authorization endpoint and the sign-in it runs, in three steps a browser goes through:
 *
 * 1. `GET /authorize` (this file): the client's request is checked (RFC 6749 §4.1.2.1 order: an unknown client
 *    or a redirect URI that is not exactly one of the client's gets an error page and is never followed):
 *    response_type `code`, PKCE with S256 only, a `resource` (RFC 8707) naming this server, known scopes
 *    within those the client registered. Every other fault is shown on an error page too, with a link back
 *    to the client carrying `error`, `state` and `iss` that the person must follow: anybody can register a
 *    redirect URI, so until the athlete has answered the consent page an automatic redirect would make this
 *    server an open redirector (RFC 9700 §4.11.2). The athlete sees the consent page naming the client and
 *    what it asks for; the checked request travels signed in the form, and a cookie set now binds the rest
 *    of the sign-in to this browser (sign-in-cookies.ts). A registration that has not completed a grant is
 *    kept from eviction from its first such request until that request expires (registration-limits.ts).
 * 2. `POST /authorize` (the consent form, consent-decision.ts): from here faults go back to the client.
 * 3. `GET /oauth/strava/callback` (strava-callback.ts): back from Strava, the athlete's tokens stored and a
 *    single-use code issued to the client.
 *
 * Codes, tokens and the state are never logged.
 */
import { isThisResource, paths } from "../addresses.ts";
import type { KnownClient } from "../clients/clients.ts";
import { errorPage, pageAnswer, consentPage } from "../pages/pages.ts";
import { storeSignal } from "../stores/authorization-stores.ts";
import { allowsWrite, scopesForRequest, scopeText } from "../tokens/scopes.ts";
import { clientRedirectUrl, OAuthRequestError } from "./oauth-answers.ts";
import { signInProtectionSeconds } from "./registration-limits.ts";
import { newSignInCookie, setCookie } from "./sign-in-cookies.ts";
import { clientHint, displayName, type PendingAuthorization, type SignInNeeds } from "./sign-in-needs.ts";
import { problemPage } from "./sign-in-pages.ts";

/** The parameters an authorization request may carry; a page names only these, never one a link made up. */
const knownParameters = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "resource",
  "response_mode",
  "prompt",
]);

/** What the checks let through: the request as the consent page and Strava's state carry it. */
interface CheckedRequest {
  redirectUri: string;
  state: string | undefined;
  challenge: string;
  scopes: string[];
}

export async function authorizationRequest(request: Request, needs: SignInNeeds, clientAddress?: string): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const repeated = repeatedParameterPage(query);
  if (repeated !== undefined) return repeated;
  const client = await identifiedClient(query, needs, clientAddress);
  if (client instanceof Response) return client;
  const redirectUri = registeredRedirectUri(query, client, needs);
  if (redirectUri instanceof Response) return redirectUri;
  const checked = checkedRequest(query, client, redirectUri, needs);
  if (checked instanceof Response) return checked;
  // A client that registered moments ago (Claude, ChatGPT) keeps its registration while the athlete signs in.
  if (client.firstSignIn)
    await needs.registrations.startSignIn(client.clientId, needs.now() + signInProtectionSeconds * 1000, storeSignal(needs.storeTimeoutMs));
  return consentAnswer(client, checked, needs);
}

/** A parameter given twice makes the link ambiguous: a page naming it (when it is one of ours). */
function repeatedParameterPage(query: URLSearchParams): Response | undefined {
  for (const key of new Set(query.keys())) {
    if (query.getAll(key).length > 1) {
      return problemPage(
        400,
        "This sign-in link is not valid",
        knownParameters.has(key) ? `The parameter ${key} appears more than once in it.` : "A parameter appears more than once in it.",
      );
    }
  }
  return undefined;
}

/** The client the request names (registered here, or by its metadata document), or the page saying it could not be identified. */
async function identifiedClient(
  query: URLSearchParams,
  needs: SignInNeeds,
  clientAddress: string | undefined,
): Promise<KnownClient | Response> {
  try {
    return await needs.clients.find(query.get("client_id"), storeSignal(needs.storeTimeoutMs), clientAddress);
  } catch (error) {
    if (!(error instanceof OAuthRequestError)) throw error;
    needs.logger.info("authorize_refused", { reason: error.code, client: clientHint(query.get("client_id")) });
    return problemPage(400, "The app asking for access could not be identified", error.description);
  }
}

/** The redirect URI, exactly one of the client's (or its only one when none is given); else a page, never a redirect. */
function registeredRedirectUri(query: URLSearchParams, client: KnownClient, needs: SignInNeeds): string | Response {
  let redirectUri = query.get("redirect_uri");
  if (redirectUri === null) {
    if (client.redirectUris.length !== 1) {
      return problemPage(
        400,
        "This sign-in link is not valid",
        "It has no redirect_uri, and the app has several: it must say which one to return to.",
      );
    }
    redirectUri = client.redirectUris[0] as string;
  }
  if (!client.redirectUris.includes(redirectUri)) {
    needs.logger.info("authorize_refused", { reason: "redirect_uri_mismatch", client: clientHint(client.clientId) });
    return problemPage(
      400,
      "This sign-in link is not valid",
      "Its redirect_uri is not exactly one of the addresses the app registered, so this server will not send you there.",
    );
  }
  return redirectUri;
}

/** The rest of the request checked: response type, PKCE, resource, scopes; a fault is a page with a link back to the client. */
function checkedRequest(query: URLSearchParams, client: KnownClient, redirectUri: string, needs: SignInNeeds): CheckedRequest | Response {
  const state = query.get("state") ?? undefined;
  const fail = (code: string, description: string, shown = description): Response =>
    refusalWithLinkBack({ code, description, shown, client, redirectUri, state }, needs);
  if (query.get("response_type") !== "code") return fail("unsupported_response_type", 'response_type must be "code".');
  const challenge = query.get("code_challenge");
  if (challenge === null) return fail("invalid_request", "code_challenge is missing: PKCE with code_challenge_method S256 is required.");
  if (query.get("code_challenge_method") !== "S256")
    return fail("invalid_request", "code_challenge_method must be S256 (plain is not accepted).");
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge))
    return fail("invalid_request", "code_challenge must be the base64url SHA-256 of the code verifier (43 characters).");
  const resource = query.get("resource");
  if (resource === null)
    return fail("invalid_target", `resource is missing: name this server's MCP endpoint, ${needs.addresses.resource} (RFC 8707).`);
  if (!isThisResource(resource, needs.addresses))
    return fail(
      "invalid_target",
      `resource must be this server's MCP endpoint, ${needs.addresses.resource}; tokens for other resources are not issued here.`,
    );
  const scopes = scopesForRequest(query.get("scope"), client.scopes);
  if (!scopes.ok && "beyond" in scopes) {
    return fail(
      "invalid_scope",
      `The scope ${scopes.beyond.join(", ")} is more than this client registered (${scopeText(client.scopes ?? [])}); ask for no more than that, or register again.`,
    );
  }
  if (!scopes.ok) {
    return fail(
      "invalid_scope",
      `Unknown scope ${scopes.unknown.join(", ")}; this server grants fitness:read and fitness:write.`,
      "It asks for a scope this server does not grant (only fitness:read and fitness:write).",
    );
  }
  return { redirectUri, state, challenge, scopes: scopes.scopes };
}

/**
 * The error page for a request whose client and redirect URI are known: `shown` is what the page says (the
 * description without anything the request made up, such as an unknown scope); the link back carries the error.
 */
function refusalWithLinkBack(
  refusal: { code: string; description: string; shown: string; client: KnownClient; redirectUri: string; state: string | undefined },
  needs: SignInNeeds,
): Response {
  const { code, description, redirectUri, state } = refusal;
  needs.logger.info("authorize_refused", { reason: code, client: clientHint(refusal.client.clientId) });
  return pageAnswer(
    errorPage({
      title: "The app's sign-in request cannot be used",
      message: refusal.shown,
      hint: "If it keeps happening, tell the app's makers what this page says.",
      backToClient: {
        href: clientRedirectUrl(redirectUri, { error: code, error_description: description, state }, needs.addresses.issuer),
        destination: redirectHost(redirectUri),
      },
    }),
    { status: 400 },
  );
}

/** The consent page, with the checked request signed into its form and the sign-in's cookie set. */
async function consentAnswer(client: KnownClient, checked: CheckedRequest, needs: SignInNeeds): Promise<Response> {
  const { cookie, csrf } = newSignInCookie(needs.addresses.issuer);
  const { redirectUri, state } = checked;
  const pending: PendingAuthorization = {
    client_id: client.clientId,
    client_name: displayName(client),
    redirect_uri: redirectUri,
    ...(state !== undefined ? { state } : {}),
    code_challenge: checked.challenge,
    scopes: checked.scopes,
    resource: needs.addresses.resource,
    cookie,
    csrf,
  };
  const html = consentPage({
    clientName: displayName(client),
    clientHost: client.kind === "document" ? new URL(client.clientId).host : "",
    verified: client.kind === "document",
    redirectHost: redirectHost(redirectUri),
    wantsWrite: allowsWrite(checked.scopes),
    request: await needs.messages.sign("consent", { ...pending }),
    csrf,
    action: `${needs.addresses.issuer}${paths.authorize}`,
  });
  return pageAnswer(html, {
    status: 200,
    // A form's navigation is checked against form-action at every redirect: Strava's page, then the
    // client's redirect URI (after Strava, or at once on Cancel).
    formTargets: [new URL(needs.strava.authorizeUrl).origin, cspSource(redirectUri)],
    headers: { "set-cookie": setCookie(cookie, csrf, needs, 15 * 60) },
  });
}

/** The CSP source that allows navigating to `uri`: its origin, or its scheme for an app's private-use scheme. */
function cspSource(uri: string): string {
  const url = new URL(uri);
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
}

function redirectHost(redirectUri: string): string {
  const url = URL.parse(redirectUri);
  if (url === null) return redirectUri;
  return url.host ? `${url.protocol}//${url.host}` : `${url.protocol}`;
}
