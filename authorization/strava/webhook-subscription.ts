/**
 * Which push subscription is this deployment's, so that an event naming another `subscription_id` is
 * ignored without any work: STRAVA_WEBHOOK_SUBSCRIPTION_ID when the operator sets it, else Strava's own
 * answer to `GET /push_subscriptions` (the application's subscription whose callback is this server's
 * webhook address, secret path included, or its only one), asked when the first event arrives and then
 * kept. A failed lookup is not tried again for 15 minutes: events meanwhile are acknowledged and ignored,
 * and cost nothing.
 */
import type { SendHttp } from "../../common/upstream/http-exchange.ts";
import { messageOf } from "../../common/named-error.ts";

const retryAfterFailureMs = 15 * 60_000;

export type SubscriptionVerdict = "ours" | "not-ours" | "unknown";

export class WebhookSubscription {
  readonly #configured: number | undefined;
  readonly #lookup: () => Promise<number | undefined>;
  readonly #now: () => number;
  #known: number | undefined;
  #pending: Promise<number | undefined> | undefined;
  #failedAtMs: number | undefined;
  /** Why the last lookup failed (for the log). */
  lastFailure: string | undefined;

  constructor(options: { configured: number | undefined; lookup: () => Promise<number | undefined>; now: () => number }) {
    this.#configured = options.configured;
    this.#lookup = options.lookup;
    this.#now = options.now;
  }

  async check(subscriptionId: number): Promise<SubscriptionVerdict> {
    const ours = this.#configured ?? (await this.#learned());
    if (ours === undefined) return "unknown";
    return subscriptionId === ours ? "ours" : "not-ours";
  }

  async #learned(): Promise<number | undefined> {
    if (this.#known !== undefined) return this.#known;
    if (this.#failedAtMs !== undefined && this.#now() - this.#failedAtMs < retryAfterFailureMs) return undefined;
    this.#pending ??= this.#lookup()
      .then((id) => {
        if (id === undefined) throw new Error("the application has no push subscription for this server's webhook");
        this.#known = id;
        return id;
      })
      .catch((error: unknown) => {
        this.#failedAtMs = this.#now();
        this.lastFailure = messageOf(error);
        return undefined;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}

/** Asks Strava for the application's push subscriptions and picks the one whose callback is `callbackUrl`. */
export function lookupStravaSubscription(options: {
  http: SendHttp;
  apiBase: string;
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  timeoutMs: number;
}): () => Promise<number | undefined> {
  return async () => {
    const url = new URL(`${options.apiBase}/push_subscriptions`);
    url.searchParams.set("client_id", options.clientId);
    url.searchParams.set("client_secret", options.clientSecret);
    const answer = await options.http({
      method: "GET",
      url: url.toString(),
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(options.timeoutMs),
      timeoutMs: options.timeoutMs,
    });
    if (answer.status !== 200) throw new Error(`Strava answered ${answer.status} to GET /push_subscriptions`);
    const list = JSON.parse(answer.bodyText) as Array<{ id?: unknown; callback_url?: unknown }>;
    if (!Array.isArray(list)) throw new Error("Strava's list of push subscriptions is not a list");
    const mine = list.find((entry) => entry.callback_url === options.callbackUrl) ?? (list.length === 1 ? list[0] : undefined);
    return typeof mine?.id === "number" ? mine.id : undefined;
  };
}
