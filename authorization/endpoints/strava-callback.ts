/**
 * `GET /oauth/strava/callback`, back from Strava (the sign-in's third step; authorization-endpoint.ts describes
 * all three), in the order its checks run:
 *
 * 1. each source may reach the callback `callbacksPerSource` times per quarter hour;
 * 2. the state must be this server's and the cookie this browser's;
 * 3. the state is spent (each is good for one callback, on every instance: whoever finished a sign-in of their
 *    own still holds its state and cookie, and replayed with made-up codes each callback would cost a token
 *    request with the application's secret);
 * 4. Strava's answer: declined, scopes unticked, or no code;
 * 5. the code is exchanged for the athlete's tokens, and the athlete must be one this deployment serves (else a
 *    refusal page, and the Strava grant is withdrawn);
 * 6. the athlete's Strava tokens are stored, a single-use code is issued, and the browser goes back to the
 *    client with `code`, `state` and `iss` (RFC 9207).
 *
 * Whatever the outcome, the answer clears the sign-in cookie. Codes, tokens and the state are never logged.
 */
import { randomBytes } from "node:crypto";
import { sha256Hex } from "../../common/digests.ts";
import { messageOf } from "../../common/named-error.ts";
import { grantedScopes } from "../../strava/strava-oauth.ts";
import { paths } from "../addresses.ts";
import { errorPage, pageAnswer, refusalPage } from "../pages/pages.ts";
import { storeSignal } from "../stores/authorization-stores.ts";
import { exchangeStravaCode, revokeStravaGrant, StravaSignInError, type StravaSignIn } from "../strava/strava-sign-in.ts";
import { scopeText } from "../tokens/scopes.ts";
import { redirectToClient } from "./oauth-answers.ts";
import { sameBrowser, signInCookiesOf, withCookiesCleared } from "./sign-in-cookies.ts";
import { clientHint, type PendingAuthorization, type SignInNeeds } from "./sign-in-needs.ts";
import { expiredPage, otherBrowserPage, problemPage, tooManyCallbacksPage, usedPage } from "./sign-in-pages.ts";

const codeLifetimeSeconds = 300;

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
  const spent = await spendState(pending, needs);
  if (spent !== undefined) return spent;
  const back = (params: Record<string, string | undefined>): Response =>
    redirectToClient(pending.redirect_uri, { ...params, state: pending.state }, needs.addresses.issuer);
  const code = stravaCode(query, pending, needs, back);
  if (code instanceof Response) return code;
  const signIn = await signedInAtStrava(code, pending, needs);
  if (signIn instanceof Response) return signIn;
  if (!(await needs.admission.admits(signIn.athleteId, storeSignal(needs.storeTimeoutMs)))) return refuseUnadmitted(signIn, pending, needs);
  return back({ code: await issueCode(signIn, pending, needs) });
}

/** Spends the state before anything else, whatever follows: a state Strava refused a code for is as used as one that worked. */
async function spendState(pending: PendingAuthorization, needs: SignInNeeds): Promise<Response | undefined> {
  if (pending.state_id === undefined || pending.exp === undefined) return expiredPage();
  if (await needs.grants.spendSignInState(pending.state_id, pending.exp, storeSignal(needs.storeTimeoutMs))) return undefined;
  needs.logger.info("strava_state_replayed", { client: clientHint(pending.client_id) });
  return usedPage();
}

/** The code in Strava's answer, or what to answer when the athlete declined, unticked a scope, or no code came. */
function stravaCode(
  query: URLSearchParams,
  pending: PendingAuthorization,
  needs: SignInNeeds,
  back: (params: Record<string, string | undefined>) => Response,
): string | Response {
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
  return code;
}

/** Strava's code exchanged for the athlete and their tokens, or the page saying why that failed. */
async function signedInAtStrava(code: string, pending: PendingAuthorization, needs: SignInNeeds): Promise<StravaSignIn | Response> {
  try {
    return await exchangeStravaCode(needs.strava, code, `${needs.addresses.issuer}${paths.stravaCallback}`);
  } catch (error) {
    if (!(error instanceof StravaSignInError)) throw error;
    needs.logger.warn("strava_sign_in_failed", { client: clientHint(pending.client_id), message: messageOf(error) });
    return problemPage(502, "The sign-in with Strava could not be finished", messageOf(error));
  }
}

/** An athlete this deployment does not serve: their Strava grant is withdrawn, and the page says who they are. */
async function refuseUnadmitted(signIn: StravaSignIn, pending: PendingAuthorization, needs: SignInNeeds): Promise<Response> {
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

/** Stores the athlete's Strava tokens and records them, then issues the single-use code the client redeems at /token. */
async function issueCode(signIn: StravaSignIn, pending: PendingAuthorization, needs: SignInNeeds): Promise<string> {
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
  return authorizationCode;
}
