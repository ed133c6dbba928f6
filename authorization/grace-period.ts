/**
 * How long the Strava tokens of an athlete no longer served here wait before they are revoked at Strava and
 * deleted (admission.ts says why there is a wait), and how the log says so.
 */

/** How long the Strava tokens of an athlete no longer admitted are kept before they are revoked and deleted. */
export const unadmittedGraceMs = 7 * 86_400_000;

/**
 * Until when the athlete's tokens are kept, and the operator's command that ends the wait now, with the settings
 * that point it at this server's store (without them it would open the default state directory, not this one).
 */
export function keptText(athleteId: string, sinceMs: number, unless: string): string {
  const until = new Date(sinceMs + unadmittedGraceMs).toISOString();
  return (
    `Their Strava tokens are kept until ${until}, then revoked at Strava and deleted, ${unless}. ` +
    `To do it now: npm run oauth-admin -- forget ${athleteId}, run with the server's own store settings ` +
    `(FITNESS_OAUTH_DIR, or MCP_OAUTH_TABLE with MCP_SIGNING_KEY_SECRET and AWS_REGION)`
  );
}
