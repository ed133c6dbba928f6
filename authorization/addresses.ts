/**
 * Where the authorization server lives: its issuer (PUBLIC_URL's origin, where every endpoint is), the one
 * resource it issues tokens for (`${issuer}/mcp`), and its endpoints' paths.
 */

export interface ServerAddresses {
  /** PUBLIC_URL's origin: the issuer, and where every endpoint lives. */
  issuer: string;
  /** `${issuer}/mcp`: the only resource tokens are issued for. */
  resource: string;
}

export const paths = {
  authorize: "/authorize",
  token: "/token",
  register: "/register",
  revoke: "/revoke",
  stravaCallback: "/oauth/strava/callback",
  /** With the secret after it (strava/webhook-path.ts); this path itself is 404. */
  stravaWebhook: "/strava/webhook",
} as const;

export function serverAddresses(issuer: string): ServerAddresses {
  return { issuer, resource: `${issuer}/mcp` };
}

/**
 * Whether a request's `resource` names this server: the MCP endpoint, or the server's origin (what some
 * 2025-era clients send); the token's audience is always the MCP endpoint.
 */
export function isThisResource(resource: string, at: ServerAddresses): boolean {
  const trimmed = resource.replace(/\/+$/, "");
  return trimmed === at.resource || trimmed === at.issuer;
}

/** Whether the server is reached over https (then its cookies are Secure and __Host- prefixed). */
export function isSecureOrigin(issuer: string): boolean {
  return issuer.startsWith("https:");
}
