/**
 * The scopes this server grants. `fitness:read` lets a client list and read the athlete's data;
 * `fitness:write` adds the write tools (create_activity, update_activity, create_upload) and implies
 * read. A read-only grant gets a tools/list without the write tools. Which Strava scopes the athlete
 * grants this server is a separate matter: the sign-in always asks Strava for what `npm run authorize`
 * asks, and checks that it was granted (strava-sign-in.ts).
 */
export const readScope = "fitness:read";
export const writeScope = "fitness:write";
export const supportedScopes = [readScope, writeScope] as const;

/** Scopes clients commonly add that mean nothing here (refresh tokens are always issued). */
const ignoredScopes = new Set(["offline_access"]);

export type ScopeParse = { ok: true; scopes: string[] } | { ok: false; unknown: string[] };

/** A requested `scope` parameter: absent or empty asks for everything; unknown scopes are refused. */
export function parseRequestedScopes(scope: string | null | undefined): ScopeParse {
  const requested = (scope ?? "").split(" ").filter((item) => item !== "" && !ignoredScopes.has(item));
  if (requested.length === 0) return { ok: true, scopes: [...supportedScopes] };
  const unknown = requested.filter((item) => !(supportedScopes as readonly string[]).includes(item));
  if (unknown.length > 0) return { ok: false, unknown };
  const scopes = requested.includes(writeScope) ? [readScope, writeScope] : [readScope];
  return { ok: true, scopes };
}

export function allowsWrite(scopes: readonly string[]): boolean {
  return scopes.includes(writeScope);
}

export function scopeText(scopes: readonly string[]): string {
  return supportedScopes.filter((scope) => scopes.includes(scope)).join(" ");
}

/**
 * The scopes a client registered, or its metadata document declares, as the most it may ask for;
 * undefined when it declared none of this server's (no limit then). Names this server does not grant are
 * ignored here: a metadata document serves every server its client talks to.
 */
export function declaredScopes(scope: string | undefined): string[] | undefined {
  const known = (scope ?? "").split(" ").filter((item) => (supportedScopes as readonly string[]).includes(item));
  if (known.length === 0) return undefined;
  return known.includes(writeScope) ? [readScope, writeScope] : [readScope];
}

export type RequestScopes = ScopeParse | { ok: false; beyond: string[] };

/**
 * An authorization request's `scope` against the client's declared limit (`declaredScopes`): absent or
 * empty asks for the limit (everything without one, RFC 6749 §3.3's default); unknown scopes are refused,
 * and so are scopes beyond the limit, so that a client that registered `fitness:read` is never offered write.
 */
export function scopesForRequest(scope: string | null | undefined, limit: readonly string[] | undefined): RequestScopes {
  const parsed = parseRequestedScopes(scope);
  if (!parsed.ok || limit === undefined) return parsed;
  const askedForNothing = (scope ?? "").split(" ").every((item) => item === "" || ignoredScopes.has(item));
  if (askedForNothing) return { ok: true, scopes: [...limit] };
  const beyond = parsed.scopes.filter((item) => !limit.includes(item));
  return beyond.length > 0 ? { ok: false, beyond } : parsed;
}
