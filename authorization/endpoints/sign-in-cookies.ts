/**
 * The sign-in's cookie: set by the consent page (authorization-endpoint.ts), it binds the rest of a sign-in to
 * the browser that started it, so nobody can finish a sign-in for somebody else. Each sign-in has a cookie of
 * its own name (several may be under way in one browser); every answer that ends a sign-in clears it.
 */
import { randomBytes } from "node:crypto";
import { isSecureOrigin } from "../addresses.ts";
import type { PendingAuthorization, SignInNeeds } from "./sign-in-needs.ts";

/** A new sign-in cookie's name (`__Host-` on https) and the value it holds, which the signed request must match. */
export function newSignInCookie(issuer: string): { cookie: string; csrf: string } {
  const csrf = randomBytes(24).toString("base64url");
  const cookie = `${isSecureOrigin(issuer) ? "__Host-" : ""}fitness_signin_${randomBytes(6).toString("hex")}`;
  return { cookie, csrf };
}

/** Whether the request comes from the browser that started this sign-in: its cookie and the form's (or state's) value match. */
export function sameBrowser(request: Request, pending: PendingAuthorization, csrf: string | null): boolean {
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

export function setCookie(name: string, value: string, needs: Pick<SignInNeeds, "addresses">, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${isSecureOrigin(needs.addresses.issuer) ? "; Secure" : ""}`;
}

function clearCookie(name: string, needs: Pick<SignInNeeds, "addresses">): string {
  return setCookie(name, "", needs, 0);
}

export function withCookieCleared(response: Response, cookie: string, needs: Pick<SignInNeeds, "addresses">): Response {
  return withCookiesCleared(response, [cookie], needs);
}

export function withCookiesCleared(response: Response, cookies: readonly string[], needs: Pick<SignInNeeds, "addresses">): Response {
  if (cookies.length === 0) return response;
  const headers = new Headers(response.headers);
  for (const cookie of cookies) headers.append("set-cookie", clearCookie(cookie, needs));
  return new Response(response.body, { status: response.status, headers });
}

/** The names of the sign-in cookies (authorizationRequest's) a request carries. */
export function signInCookiesOf(request: Request): string[] {
  const names = (request.headers.get("cookie") ?? "").split(";").map((part) => part.trim().split("=")[0] ?? "");
  return names.filter((name) => /^(__Host-)?fitness_signin_[0-9a-f]{12}$/.test(name)).slice(0, 10);
}
