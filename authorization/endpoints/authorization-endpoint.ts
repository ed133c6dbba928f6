/**
 * The authorization endpoint and the sign-in it runs, in three steps a browser goes through:
 *
 * 1. `GET /authorize`: the client's request is checked (RFC 6749 §4.1.2.1 order: an unknown client or a
 *    redirect URI that is not exactly one of the client's gets an error page and is never followed):
 *    response_type `code`, PKCE with S256 only, a `resource` (RFC 8707) naming this server, known scopes
 *    within those the client registered. Every other fault is shown on an error page too, with a link back
 *    to the client carrying `error`, `state` and `iss` that the person must follow: anybody can register a
 *    redirect URI, so until the athlete has answered the consent page an automatic redirect would make this
 *    server an open redirector (RFC 9700 §4.11.2). The athlete sees the consent page naming the client and
 *    what it asks for; the checked request travels signed in the form, and a cookie set now binds the rest
 *    of the sign-in to this browser. A registration that has not completed a grant is kept from eviction
 *    from its first such request until that request expires (registration-limits.ts).
 * 2. `POST /authorize` (the consent form): the athlete has now seen where the client sends them, so from
 *    here faults go back to the client as RFC 6749 §4.1.2.1 says. Cancel goes back as `access_denied`;
 *    Continue sends the browser to Strava's authorize page, with the request, signed, as Strava's `state`.
 * 3. `GET /oauth/strava/callback`: back from Strava. The state and cookie are checked, the state is spent
 *    (each is good for one callback, on every instance: whoever finished a sign-in of their own still holds
 *    its state and cookie, and replayed with made-up codes each callback would cost a token request with the
 *    application's secret), the Strava scopes too, the code is exchanged for the athlete's tokens, and the
 *    athlete must be one this deployment serves (else a refusal page, and the Strava grant is withdrawn).
 *    The athlete's Strava tokens are stored, a single-use code is issued, and the browser goes back to the
 *    client with `code`, `state` and `iss` (RFC 9207). Whatever the outcome, the answer clears the sign-in
 *    cookie, and each source may reach the callback `callbacksPerSource` times per quarter hour.
 *
 * Codes, tokens and the state are never logged.
 */
import { randomBytes } from "node:crypto";
import type { Logger } from "../../common/logger.ts";
import { sha256Hex } from "../../common/digests.ts";
import { messageOf } from "../../common/named-error.ts";
import type { AthleteCredentialStore } from "../../credentials/store-choice.ts";
import { grantedScopes, stravaAuthorizeUrl } from "../../strava/strava-oauth.ts";
import { isSecureOrigin, isThisResource, paths, type ServerAddresses } from "../addresses.ts";
import type { Admission } from "../admission.ts";
import type { ClientDirectory, KnownClient } from "../clients/clients.ts";
import { cleanDisplayText } from "../pages/display-text.ts";
import { errorPage, pageAnswer, refusalPage, consentPage } from "../pages/pages.ts";
import { storeSignal } from "../stores/authorization-stores.ts";
import type { AthleteStore } from "../stores/athlete-store.ts";
import type { GrantStore } from "../stores/grant-store.ts";
import type { RegistrationStore } from "../stores/registration-store.ts";
import { exchangeStravaCode, revokeStravaGrant, StravaSignInError, type StravaApplication } from "../strava/strava-sign-in.ts";
import type { SignedMessages } from "../tokens/signed-messages.ts";
import { allowsWrite, readScope, scopesForRequest, scopeText } from "../tokens/scopes.ts";
import { clientRedirectUrl, OAuthRequestError, readForm, redirectToClient } from "./oauth-answers.ts";
import { signInProtectionSeconds } from "./registration-limits.ts";
import type { SourceCounts } from "./source-counts.ts";

/** What the three steps of a sign-in work with. */
export interface SignInNeeds {
  addresses: ServerAddresses;
  clients: ClientDirectory;
  registrations: Pick<RegistrationStore, "startSignIn">;
  grants: Pick<GrantStore, "spendSignInState" | "putCode">;
  /** The athlete's Strava tokens (credentials/store-choice.ts makes the store). */
  athleteCredentials: (athleteId: string) => AthleteCredentialStore;
  athletes: Pick<AthleteStore, "recordStored">;
  admission: Pick<Admission, "admits" | "describe">;
  /** Signs the checked request into the consent form and Strava's state. */
  messages: SignedMessages;
  strava: StravaApplication;
  /** This process's count of each source's Strava sign-in callbacks (each may cost a token request at Strava). */
  signInCallbacks: SourceCounts;
  logger: Logger;
  now: () => number;
  storeTimeoutMs: number;
}

/** The checked authorization request, as signed into the consent form and Strava's state. */
interface PendingAuthorization {
  client_id: string;
  client_name: string;
  redirect_uri: string;
  state?: string;
  code_challenge: string;
  scopes: string[];
  resource: string;
  /** Name of this sign-in's cookie, and the value it must hold. */
  cookie: string;
  csrf: string;
  /** In Strava's state only: its id, spent at the callback. */
  state_id?: string;
  /** The signed message's expiry (epoch s). */
  exp?: number;
}

/** Strava sign-in callbacks one source may make per quarter hour (a person signs in a few times a day). */
export const callbacksPerSource = { limit: 10, windowMs: 15 * 60_000 };

const codeLifetimeSeconds = 300;

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

export async function authorizationRequest(request: Request, needs: SignInNeeds, clientAddress?: string): Promise<Response> {
  const query = new URL(request.url).searchParams;
  for (const key of new Set(query.keys())) {
    if (query.getAll(key).length > 1) {
      return problemPage(
        400,
        "This sign-in link is not valid",
        knownParameters.has(key) ? `The parameter ${key} appears more than once in it.` : "A parameter appears more than once in it.",
      );
    }
  }
  let client: KnownClient;
  try {
    client = await needs.clients.find(query.get("client_id"), storeSignal(needs.storeTimeoutMs), clientAddress);
  } catch (error) {
    if (!(error instanceof OAuthRequestError)) throw error;
    needs.logger.info("authorize_refused", { reason: error.code, client: clientHint(query.get("client_id")) });
    return problemPage(400, "The app asking for access could not be identified", error.description);
  }
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
  const state = query.get("state") ?? undefined;
  // `shown` is what the page says: the description without anything the request made up (an unknown scope).
  const fail = (code: string, description: string, shown = description): Response => {
    needs.logger.info("authorize_refused", { reason: code, client: clientHint(client.clientId) });
    return pageAnswer(
      errorPage({
        title: "The app's sign-in request cannot be used",
        message: shown,
        hint: "If it keeps happening, tell the app's makers what this page says.",
        backToClient: {
          href: clientRedirectUrl(redirectUri, { error: code, error_description: description, state }, needs.addresses.issuer),
          destination: redirectHost(redirectUri),
        },
      }),
      { status: 400 },
    );
  };
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

  // A client that registered moments ago (Claude, ChatGPT) keeps its registration while the athlete signs in.
  if (client.firstSignIn)
    await needs.registrations.startSignIn(client.clientId, needs.now() + signInProtectionSeconds * 1000, storeSignal(needs.storeTimeoutMs));

  const csrf = randomBytes(24).toString("base64url");
  const cookie = `${isSecureOrigin(needs.addresses.issuer) ? "__Host-" : ""}fitness_signin_${randomBytes(6).toString("hex")}`;
  const pending: PendingAuthorization = {
    client_id: client.clientId,
    client_name: displayName(client),
    redirect_uri: redirectUri,
    ...(state !== undefined ? { state } : {}),
    code_challenge: challenge,
    scopes: scopes.scopes,
    resource: needs.addresses.resource,
    cookie,
    csrf,
  };
  const html = consentPage({
    clientName: displayName(client),
    clientHost: client.kind === "document" ? new URL(client.clientId).host : "",
    verified: client.kind === "document",
    redirectHost: redirectHost(redirectUri),
    wantsWrite: allowsWrite(scopes.scopes),
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

export async function consentDecision(request: Request, needs: SignInNeeds): Promise<Response> {
  let form: URLSearchParams;
  try {
    form = await readForm(request);
  } catch (error) {
    if (!(error instanceof OAuthRequestError)) throw error;
    return problemPage(400, "This form could not be read", error.description);
  }
  const pending = await needs.messages.open<PendingAuthorization>("consent", form.get("request") ?? "");
  if (pending === undefined) return expiredPage();
  if (!sameBrowser(request, pending, form.get("csrf"))) return otherBrowserPage();
  if (form.get("decision") !== "allow") {
    needs.logger.info("consent_declined", { client: clientHint(pending.client_id) });
    return withCookieCleared(
      redirectToClient(
        pending.redirect_uri,
        { error: "access_denied", error_description: "The athlete declined.", state: pending.state },
        needs.addresses.issuer,
      ),
      pending.cookie,
      needs,
    );
  }
  const scopes = allowsWrite(pending.scopes) && form.get("allow_write") !== "yes" ? [readScope] : pending.scopes;
  const state = await needs.messages.sign("strava-state", { ...pending, scopes, state_id: randomBytes(16).toString("base64url") });
  const location = stravaAuthorizeUrl(needs.strava, `${needs.addresses.issuer}${paths.stravaCallback}`, state);
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}

export async function stravaCallback(request: Request, needs: SignInNeeds, sourceAddress: string | undefined): Promise<Response> {
  const counted = needs.signInCallbacks.admit(sourceAddress, needs.now());
  if (!counted.admitted) {
    return withCookiesCleared(tooManyCallbacksPage(counted.retryAfterSeconds), signInCookiesOf(request), needs);
  }
  const query = new URL(request.url).searchParams;
  const pending = await needs.messages.open<PendingAuthorization>("strava-state", query.get("state") ?? "");
  // Which sign-in this was is unknown: every sign-in cookie the browser sent goes.
  if (pending === undefined) return withCookiesCleared(expiredPage(), signInCookiesOf(request), needs);
  return withCookiesCleared(await finishStravaSignIn(request, query, pending, needs), [pending.cookie], needs);
}

/** The callback of a sign-in whose state is this server's: every answer clears its cookie (stravaCallback). */
async function finishStravaSignIn(
  request: Request,
  query: URLSearchParams,
  pending: PendingAuthorization,
  needs: SignInNeeds,
): Promise<Response> {
  if (!sameBrowser(request, pending, pending.csrf)) return otherBrowserPage();
  // Spent before anything else, whatever follows: a state Strava refused a code for is as used as one that worked.
  if (pending.state_id === undefined || pending.exp === undefined) return expiredPage();
  if (!(await needs.grants.spendSignInState(pending.state_id, pending.exp, storeSignal(needs.storeTimeoutMs)))) {
    needs.logger.info("strava_state_replayed", { client: clientHint(pending.client_id) });
    return usedPage();
  }
  const back = (params: Record<string, string | undefined>): Response =>
    redirectToClient(pending.redirect_uri, { ...params, state: pending.state }, needs.addresses.issuer);

  const stravaError = query.get("error");
  if (stravaError !== null) {
    needs.logger.info("strava_sign_in_declined", { client: clientHint(pending.client_id), strava_error: stravaError.slice(0, 40) });
    return back({ error: "access_denied", error_description: "The athlete did not allow access on Strava's page." });
  }
  const { missing } = grantedScopes(query.get("scope"));
  if (missing.length > 0) {
    return pageAnswer(
      errorPage({
        title: "Strava did not give all the access this server needs",
        message: `On Strava's page the boxes for ${missing.join(", ")} were unticked. This server needs them to read and update your training log.`,
        hint: "Start the connection again from your app and leave every box ticked on Strava's page.",
      }),
      { status: 400 },
    );
  }
  const code = query.get("code");
  if (!code)
    return problemPage(400, "Strava's answer is incomplete", "It carries no authorization code. Start the connection again from your app.");

  let signIn;
  try {
    signIn = await exchangeStravaCode(needs.strava, code, `${needs.addresses.issuer}${paths.stravaCallback}`);
  } catch (error) {
    if (!(error instanceof StravaSignInError)) throw error;
    needs.logger.warn("strava_sign_in_failed", { client: clientHint(pending.client_id), message: messageOf(error) });
    return problemPage(502, "The sign-in with Strava could not be finished", messageOf(error));
  }
  if (!(await needs.admission.admits(signIn.athleteId, storeSignal(needs.storeTimeoutMs)))) {
    needs.logger.warn("sign_in_refused", {
      athlete: signIn.athleteId,
      client: clientHint(pending.client_id),
      admitted: needs.admission.describe,
    });
    try {
      await revokeStravaGrant(needs.strava, signIn.tokens.refresh_token);
    } catch (error) {
      needs.logger.warn("strava_revoke_failed", { athlete: signIn.athleteId, message: messageOf(error) });
    }
    return pageAnswer(refusalPage({ athleteName: signIn.athleteName, athleteId: signIn.athleteId }), { status: 403 });
  }

  await needs
    .athleteCredentials(signIn.athleteId)
    .writeAuthorization(
      { client_id: needs.strava.clientId, client_secret: needs.strava.clientSecret, ...signIn.tokens },
      storeSignal(needs.storeTimeoutMs),
    );
  await needs.athletes.recordStored(signIn.athleteId, storeSignal(needs.storeTimeoutMs));
  const authorizationCode = randomBytes(32).toString("base64url");
  await needs.grants.putCode(
    {
      code_sha256: sha256Hex(authorizationCode),
      client_id: pending.client_id,
      redirect_uri: pending.redirect_uri,
      code_challenge: pending.code_challenge,
      scope: scopeText(pending.scopes),
      resource: pending.resource,
      athlete_id: signIn.athleteId,
      client_name: pending.client_name,
      expires_at: Math.floor(needs.now() / 1000) + codeLifetimeSeconds,
    },
    storeSignal(needs.storeTimeoutMs),
  );
  needs.logger.info("sign_in_completed", {
    athlete: signIn.athleteId,
    client: clientHint(pending.client_id),
    scope: scopeText(pending.scopes),
  });
  return back({ code: authorizationCode });
}

/** A client's name for pages and logs: its own (cleaned of characters that hide or reorder text), or its host, never empty. */
export function displayName(client: KnownClient): string {
  const name = cleanDisplayText(client.name ?? "", 100);
  if (name) return name;
  if (client.kind === "document") return new URL(client.clientId).host;
  return "An app that did not give its name";
}

/** What goes in a log line about a client: a document's host, or a registered client's id. */
export function clientHint(clientId: string | null | undefined): string | undefined {
  if (!clientId) return undefined;
  const url = URL.parse(clientId);
  return (url?.host ?? clientId).slice(0, 120);
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

function sameBrowser(request: Request, pending: PendingAuthorization, csrf: string | null): boolean {
  const cookie = readCookie(request, pending.cookie);
  return cookie !== undefined && csrf !== null && cookie === pending.csrf && csrf === pending.csrf;
}

function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

function setCookie(name: string, value: string, needs: SignInNeeds, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${isSecureOrigin(needs.addresses.issuer) ? "; Secure" : ""}`;
}

function clearCookie(name: string, needs: SignInNeeds): string {
  return setCookie(name, "", needs, 0);
}

function withCookieCleared(response: Response, cookie: string, needs: SignInNeeds): Response {
  return withCookiesCleared(response, [cookie], needs);
}

function withCookiesCleared(response: Response, cookies: readonly string[], needs: SignInNeeds): Response {
  if (cookies.length === 0) return response;
  const headers = new Headers(response.headers);
  for (const cookie of cookies) headers.append("set-cookie", clearCookie(cookie, needs));
  return new Response(response.body, { status: response.status, headers });
}

/** The names of the sign-in cookies (authorizationRequest's) a request carries. */
function signInCookiesOf(request: Request): string[] {
  const names = (request.headers.get("cookie") ?? "").split(";").map((part) => part.trim().split("=")[0] ?? "");
  return names.filter((name) => /^(__Host-)?fitness_signin_[0-9a-f]{12}$/.test(name)).slice(0, 10);
}

function problemPage(status: number, title: string, message: string): Response {
  return pageAnswer(
    errorPage({
      title,
      message,
      hint: "Go back to the app you came from and start connecting again. If it keeps happening, tell the app's makers what this page says.",
    }),
    { status },
  );
}

function expiredPage(): Response {
  return problemPage(
    400,
    "This sign-in has expired",
    "The page was open too long (15 minutes), or its link was altered, so it cannot be finished.",
  );
}

function usedPage(): Response {
  return problemPage(
    400,
    "This sign-in was already used",
    "Strava's answer for it came back here before, so it cannot be finished again (a page reloaded or opened twice does this).",
  );
}

function tooManyCallbacksPage(retryAfterSeconds: number): Response {
  return pageAnswer(
    errorPage({
      title: "Too many sign-ins from your network",
      message: `This server takes at most ${callbacksPerSource.limit} returns from Strava's sign-in page per quarter hour from one network, and yours has used them up.`,
      hint: `Wait ${Math.ceil(retryAfterSeconds / 60)} minutes, then start connecting again from your app.`,
    }),
    { status: 429, headers: { "retry-after": String(retryAfterSeconds) } },
  );
}

function otherBrowserPage(): Response {
  return pageAnswer(
    errorPage({
      title: "This sign-in was started in another browser",
      message:
        "A connection must be finished in the browser it was started in (with cookies allowed for this site), so that nobody can finish it for you.",
      hint: "Start connecting again from your app, and stay in the same browser until you are sent back.",
    }),
    { status: 403 },
  );
}
