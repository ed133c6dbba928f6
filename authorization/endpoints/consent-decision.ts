/**
 * `POST /authorize`, the consent form (the sign-in's second step; authorization-endpoint.ts describes all
 * three): the athlete has now seen where the client sends them, so from here faults go back to the client as
 * RFC 6749 §4.1.2.1 says. Cancel goes back as `access_denied`; Continue sends the browser to Strava's
 * authorize page, with the request, signed, as Strava's `state`. Write access the athlete unticked is left out.
 */
import { randomBytes } from "node:crypto";
import { stravaAuthorizeUrl } from "../../strava/strava-oauth.ts";
import { paths } from "../addresses.ts";
import { allowsWrite, readScope } from "../tokens/scopes.ts";
import { OAuthRequestError, readForm, redirectToClient } from "./oauth-answers.ts";
import { sameBrowser, withCookieCleared } from "./sign-in-cookies.ts";
import { clientHint, type PendingAuthorization, type SignInNeeds } from "./sign-in-needs.ts";
import { expiredPage, otherBrowserPage, problemPage } from "./sign-in-pages.ts";

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
