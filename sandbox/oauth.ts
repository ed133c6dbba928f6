/**
 * Strava's OAuth 2.0, as the sandbox plays it: an authorize page that approves at once, the token
 * endpoint (authorization_code and refresh_token grants), the revocation endpoint, access tokens that
 * expire by the sandbox's clock, refresh-token rotation, and the scope checks behind the API's 401s.
 *
 * Behaviour copied from Strava: a refresh while the access token has more than an hour left returns
 * that same access token; a rotated-away refresh token answers 400 with the RefreshToken/invalid Fault;
 * codes are single-use. Tokens are 40 hex digits like Strava's. The seeded refresh token is derived from
 * the seed (so `npm run sandbox` prints the same one each run); every other token is random.
 */
import { createHash, randomBytes } from "node:crypto";
import { badRequest, faultReply, invalidAccessToken } from "./fault-bodies.ts";
import { serializeJson } from "./bigint-json.ts";
import type { JsonValue } from "./bigint-json.ts";
import type { Reply } from "./reply.ts";
import { jsonReply, redirectReply } from "./reply.ts";

export const knownScopes = [
  "read",
  "read_all",
  "profile:read_all",
  "profile:write",
  "activity:read",
  "activity:read_all",
  "activity:write",
] as const;

export interface OAuthSettings {
  clientId: string;
  clientSecret: string;
  initialRefreshToken: string;
  grantedScopes: readonly string[];
  tokenLifetimeSeconds: number;
  rotateRefreshTokens: boolean;
  clock: () => number;
  /** The athlete object of the authorization-code answer, for the athlete with that id. */
  athlete: (athleteId: number) => { [key: string]: JsonValue | undefined };
  /** The athlete of the seeded grant. */
  seedAthleteId: number;
  /** The athlete signed in at the authorize page right now (the sandbox's stand-in for Strava's login). */
  signedInAthlete: () => number;
  /** Refresh tokens accepted from the start, each a grant of its own (`startSandbox`'s `keptGrants`). */
  keptGrants: readonly { athleteId: number; refreshToken: string }[];
}

interface RefreshRecord {
  scopes: readonly string[];
  athleteId: number;
  /** Chain name, so the seeded chain can be followed through rotations. */
  chain: string;
  accessToken: string | null;
}

interface AccessRecord {
  scopes: ReadonlySet<string>;
  athleteId: number;
  expiresAt: number; // epoch seconds
  /** The grant it belongs to (revoking the grant ends it). */
  chain: string;
}

export type Authentication = { ok: true; scopes: ReadonlySet<string>; athleteId: number } | { ok: false; reply: Reply };

const codeLifetimeMs = 10 * 60_000;

export class OAuthServer {
  private readonly settings: OAuthSettings;
  private readonly refreshTokens = new Map<string, RefreshRecord>();
  private readonly accessTokens = new Map<string, AccessRecord>();
  private readonly codes = new Map<string, { scopes: readonly string[]; athleteId: number; expiresAtMs: number }>();
  private readonly chainHeads = new Map<string, string>();

  constructor(settings: OAuthSettings) {
    this.settings = settings;
    this.refreshTokens.set(settings.initialRefreshToken, {
      scopes: [...settings.grantedScopes],
      athleteId: settings.seedAthleteId,
      chain: "seed",
      accessToken: null,
    });
    this.chainHeads.set("seed", settings.initialRefreshToken);
    settings.keptGrants.forEach(({ athleteId, refreshToken }, index) => {
      const chain = `kept-${index}`;
      this.refreshTokens.set(refreshToken, { scopes: [...settings.grantedScopes], athleteId, chain, accessToken: null });
      this.chainHeads.set(chain, refreshToken);
    });
  }

  /** The refresh token of the seeded grant that works right now (follows rotation). */
  seededRefreshToken(): string {
    return this.chainHeads.get("seed") ?? this.settings.initialRefreshToken;
  }

  /** Whether `refreshToken` would be accepted right now (not spent by a rotation, not revoked). */
  acceptsRefreshToken(refreshToken: string): boolean {
    return this.refreshTokens.has(refreshToken);
  }

  /** Every access token issued so far is expired from now on. */
  expireAccessTokens(): void {
    const now = Math.floor(this.settings.clock() / 1000);
    for (const record of this.accessTokens.values()) record.expiresAt = Math.min(record.expiresAt, now - 1);
  }

  /** GET /oauth/authorize: approves at once and redirects back with code, state and the granted scope. */
  authorize(query: URLSearchParams): Reply {
    const clientId = query.get("client_id");
    if (!clientId) return badRequest("Application", "client_id", "missing");
    if (clientId !== this.settings.clientId) return badRequest("Application", "client_id", "invalid");
    const redirect = parseLoopbackRedirect(query.get("redirect_uri"));
    if (!redirect) return badRequest("Application", "redirect_uri", "invalid");
    if (query.get("response_type") !== "code") return badRequest("Application", "response_type", "invalid");
    const requested = (query.get("scope") ?? "read").split(/[,\s]+/).filter((s) => s.length > 0);
    if (requested.some((s) => !(knownScopes as readonly string[]).includes(s))) return badRequest("Application", "scope", "invalid");
    // The athlete "unticks" whatever the sandbox was not configured to grant.
    const granted = requested.filter((s) => s === "read" || this.settings.grantedScopes.includes(s));
    const code = randomToken();
    this.codes.set(code, {
      scopes: granted,
      athleteId: this.settings.signedInAthlete(),
      expiresAtMs: this.settings.clock() + codeLifetimeMs,
    });
    const state = query.get("state");
    if (state !== null) redirect.searchParams.set("state", state);
    redirect.searchParams.set("code", code);
    redirect.searchParams.set("scope", granted.join(","));
    return redirectReply(redirect.toString());
  }

  /** POST /oauth/token with the parameters from the form body, JSON body or query string. */
  token(params: Record<string, string>): Reply {
    const clientId = params["client_id"];
    if (!clientId) return badRequest("Application", "client_id", "missing");
    if (clientId !== this.settings.clientId) return badRequest("Application", "client_id", "invalid");
    const secret = params["client_secret"];
    if (!secret) return badRequest("Application", "client_secret", "missing");
    if (secret !== this.settings.clientSecret) return badRequest("Application", "client_secret", "invalid");
    switch (params["grant_type"]) {
      case "refresh_token":
        return this.refresh(params["refresh_token"]);
      case "authorization_code":
        return this.exchangeCode(params["code"]);
      case undefined:
      case "":
        return badRequest("Application", "grant_type", "missing");
      default:
        return badRequest("Application", "grant_type", "invalid");
    }
  }

  /**
   * POST /oauth/revoke (RFC 7009, as Strava serves it since 2026): HTTP Basic client credentials and
   * `token`, a refresh or access token. The whole grant ends: its refresh token and every access token
   * issued under it. An unknown token is answered 200 too, as the RFC asks.
   */
  revoke(authorization: string | undefined, params: Record<string, string>): Reply {
    const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? "");
    const decoded = basic ? Buffer.from(basic[1] ?? "", "base64").toString("utf8") : "";
    const colon = decoded.indexOf(":");
    const clientId = colon < 0 ? "" : decodeURIComponent(decoded.slice(0, colon));
    const clientSecret = colon < 0 ? "" : decodeURIComponent(decoded.slice(colon + 1));
    if (!basic || clientId !== this.settings.clientId || clientSecret !== this.settings.clientSecret) {
      return faultReply(401, "Authorization Error", [{ resource: "Application", field: "client_credentials", code: "invalid" }]);
    }
    const token = params["token"];
    if (!token) return badRequest("Token", "token", "missing");
    const chain = this.refreshTokens.get(token)?.chain ?? this.accessTokens.get(token)?.chain;
    if (chain !== undefined) this.endChains((record) => record.chain === chain);
    return jsonReply(200, "{}");
  }

  /**
   * The athlete revokes the application's access on Strava's settings page: every grant of theirs ends.
   * Returns whether they had one (Strava sends its deauthorization event only then).
   */
  deauthorize(athleteId: number): boolean {
    const had = [...this.refreshTokens.values()].some((record) => record.athleteId === athleteId);
    this.endChains((record) => record.athleteId === athleteId);
    return had;
  }

  private endChains(matches: (record: { chain: string; athleteId: number }) => boolean): void {
    for (const [refreshToken, record] of this.refreshTokens) {
      if (matches(record)) {
        this.refreshTokens.delete(refreshToken);
        this.chainHeads.delete(record.chain);
      }
    }
    for (const [accessToken, record] of this.accessTokens) if (matches(record)) this.accessTokens.delete(accessToken);
  }

  /** Checks the bearer token of an API request. */
  authenticate(authorization: string | undefined, queryToken: string | null): Authentication {
    let token: string | null = null;
    if (authorization) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      token = match?.[1] ?? null;
    } else if (queryToken) {
      token = queryToken;
    }
    if (!token) return { ok: false, reply: invalidAccessToken() };
    const record = this.accessTokens.get(token);
    if (!record || record.expiresAt <= Math.floor(this.settings.clock() / 1000)) return { ok: false, reply: invalidAccessToken() };
    return { ok: true, scopes: record.scopes, athleteId: record.athleteId };
  }

  private refresh(refreshToken: string | undefined): Reply {
    if (!refreshToken) return badRequest("RefreshToken", "refresh_token", "missing");
    const record = this.refreshTokens.get(refreshToken);
    if (!record) return badRequest("RefreshToken", "refresh_token", "invalid");
    const now = Math.floor(this.settings.clock() / 1000);
    let accessToken = record.accessToken;
    let access = accessToken ? this.accessTokens.get(accessToken) : undefined;
    // Strava hands back the same access token while it has more than an hour to live.
    if (!accessToken || !access || access.expiresAt - now <= 3600) {
      accessToken = randomToken();
      access = {
        scopes: new Set(record.scopes),
        athleteId: record.athleteId,
        expiresAt: now + this.settings.tokenLifetimeSeconds,
        chain: record.chain,
      };
      this.accessTokens.set(accessToken, access);
    }
    let nextRefresh = refreshToken;
    if (this.settings.rotateRefreshTokens) {
      nextRefresh = randomToken();
      this.refreshTokens.delete(refreshToken);
      this.refreshTokens.set(nextRefresh, { ...record, accessToken });
      this.chainHeads.set(record.chain, nextRefresh);
    } else {
      record.accessToken = accessToken;
    }
    return jsonReply(
      200,
      serializeJson({
        token_type: "Bearer",
        access_token: accessToken,
        expires_at: access.expiresAt,
        expires_in: Math.max(0, access.expiresAt - now),
        refresh_token: nextRefresh,
      }),
    );
  }

  private exchangeCode(code: string | undefined): Reply {
    if (!code) return badRequest("AuthorizationCode", "code", "missing");
    const grant = this.codes.get(code);
    this.codes.delete(code);
    if (!grant || grant.expiresAtMs < this.settings.clock()) return badRequest("AuthorizationCode", "code", "invalid");
    const now = Math.floor(this.settings.clock() / 1000);
    const accessToken = randomToken();
    const refreshToken = randomToken();
    const expiresAt = now + this.settings.tokenLifetimeSeconds;
    this.accessTokens.set(accessToken, { scopes: new Set(grant.scopes), athleteId: grant.athleteId, expiresAt, chain: refreshToken });
    this.refreshTokens.set(refreshToken, { scopes: grant.scopes, athleteId: grant.athleteId, chain: refreshToken, accessToken });
    this.chainHeads.set(refreshToken, refreshToken);
    return jsonReply(
      200,
      serializeJson({
        token_type: "Bearer",
        expires_at: expiresAt,
        expires_in: this.settings.tokenLifetimeSeconds,
        refresh_token: refreshToken,
        access_token: accessToken,
        athlete: this.settings.athlete(grant.athleteId),
      }),
    );
  }
}

/** Only loopback redirect targets: the sandbox must never become an open redirector. */
function parseLoopbackRedirect(value: string | null): URL | null {
  const url = value ? URL.parse(value) : null;
  if (url === null) return null;
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) return null;
  return url;
}

function randomToken(): string {
  return randomBytes(20).toString("hex");
}

/** A 40-hex-digit value derived from the seed (stable client secret and first refresh token). */
export function seededHex(seed: number, purpose: string): string {
  return createHash("sha1").update(`openclaw-fitness-sandbox:${purpose}:${seed}`).digest("hex");
}

/** Whether a token's scopes allow reading activities, and whether that includes private ("Only You") ones. */
export function activityReadAccess(scopes: ReadonlySet<string>): "all" | "public" | null {
  if (scopes.has("activity:read_all")) return "all";
  if (scopes.has("activity:read")) return "public";
  return null;
}
