/**
 * Where Strava's push subscription posts its events: `/strava/webhook/<secret>`. Strava does not sign its
 * events, so anybody could post one to a known address; the secret in the path is what sets Strava's posts
 * apart (only Strava and the operator know it). It is derived from the access-token signing key (HMAC-SHA-256
 * of a fixed label), so it is generated and kept with that key, in the state directory and in Secrets
 * Manager alike, the same on every instance, and never written anywhere else: it changes only when the key
 * is replaced (then the subscription is made again with the new address). The operator reads the address
 * with `npm run oauth-admin -- webhook`; nothing logs it (`loggedPath`).
 */
import { createHmac } from "node:crypto";
import { secretsMatch } from "../../common/digests.ts";
import { paths } from "../addresses.ts";

const label = "openclaw-fitness: the Strava webhook's path";

/** The webhook's path on this deployment: `/strava/webhook/` and the secret. */
export function stravaWebhookPath(signingKey: Uint8Array): string {
  return `${paths.stravaWebhook}/${createHmac("sha256", signingKey).update(label).digest("base64url")}`;
}

/** Whether `path` is the webhook's (compared in constant time: a wrong guess learns nothing from the timing). */
export function isStravaWebhookPath(path: string, webhookPath: string): boolean {
  return path.startsWith(`${paths.stravaWebhook}/`) && secretsMatch(path, webhookPath);
}

/** `path` as a log line may show it: the webhook's secret (or a guess at it) left out. */
export function loggedPath(path: string): string {
  return path.startsWith(`${paths.stravaWebhook}/`) ? `${paths.stravaWebhook}/(secret)` : path.slice(0, 100);
}
