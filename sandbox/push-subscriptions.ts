/**
 * Strava's webhook push subscriptions, as the sandbox plays them: an application creates one with its
 * client credentials, a `callback_url` and a `verify_token` (`POST /api/v3/push_subscriptions`, form
 * parameters); Strava first validates the callback with `GET callback_url?hub.mode=subscribe&
 * hub.challenge=...&hub.verify_token=...`, which must answer 200 `{"hub.challenge": <the challenge>}`
 * within two seconds. `GET /api/v3/push_subscriptions` lists the application's one subscription and
 * `DELETE /api/v3/push_subscriptions/{id}` ends it.
 *
 * Events are POSTed as JSON to the callback; an athlete who revokes the application's access sends
 * `{"aspect_type":"update","object_type":"athlete","object_id":<athlete>,"owner_id":<athlete>,
 * "updates":{"authorized":"false"},"subscription_id","event_time"}`. A push that does not get a 200
 * within two seconds is tried again, three attempts in all. Only loopback callbacks are accepted: the
 * sandbox never calls out of the machine.
 */
import { randomBytes } from "node:crypto";
import { badRequest, faultReply } from "./fault-bodies.ts";
import { serializeJson } from "./bigint-json.ts";
import type { Reply } from "./reply.ts";
import { jsonReply } from "./reply.ts";

export interface PushSubscription {
  id: number;
  callbackUrl: string;
  createdAt: string;
}

export interface PushEvent {
  aspect_type: "create" | "update" | "delete";
  event_time: number;
  object_id: number;
  object_type: "activity" | "athlete";
  owner_id: number;
  subscription_id: number;
  updates: Record<string, string>;
}

const callbackTimeoutMs = 2_000;
const attempts = 3;

export class PushSubscriptions {
  private readonly applicationId: number;
  private readonly clientSecret: string;
  private readonly clock: () => number;
  private subscription: PushSubscription | undefined;
  private nextId = 120_475;
  /** Deliveries under way (tests wait for them). */
  private readonly deliveries = new Set<Promise<void>>();

  constructor(options: { clientId: string; clientSecret: string; clock: () => number }) {
    this.applicationId = Number(options.clientId);
    this.clientSecret = options.clientSecret;
    this.clock = options.clock;
  }

  /** Handles `/api/v3/push_subscriptions[/{id}]`; `params` are the query and form parameters together. */
  async handle(method: string, rest: string, params: Record<string, string>): Promise<Reply> {
    if (params["client_id"] !== String(this.applicationId) || params["client_secret"] !== this.clientSecret) {
      return faultReply(401, "Authorization Error", [{ resource: "Application", field: "client_credentials", code: "invalid" }]);
    }
    if (method === "GET" && rest === "") {
      const list = this.subscription ? [this.json(this.subscription)] : [];
      return jsonReply(200, serializeJson(list));
    }
    if (method === "DELETE" && /^\/\d+$/.test(rest)) {
      if (this.subscription === undefined || String(this.subscription.id) !== rest.slice(1)) {
        return faultReply(404, "Record Not Found", [{ resource: "PushSubscription", field: "id", code: "invalid" }]);
      }
      this.subscription = undefined;
      return { status: 204, body: "" };
    }
    if (method === "POST" && rest === "") return this.create(params["callback_url"], params["verify_token"]);
    return faultReply(404, "Record Not Found", [{ resource: "resource", field: "path", code: "invalid" }]);
  }

  /** Sends `event` to the subscription's callback, if there is one (three attempts); resolves when done. */
  push(event: Omit<PushEvent, "subscription_id" | "event_time">): Promise<void> {
    const subscription = this.subscription;
    if (subscription === undefined) return Promise.resolve();
    const body = JSON.stringify({ ...event, subscription_id: subscription.id, event_time: Math.floor(this.clock() / 1000) });
    const delivery = (async () => {
      for (let attempt = 1; attempt <= attempts; attempt++) {
        try {
          const response = await fetch(subscription.callbackUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
            signal: AbortSignal.timeout(callbackTimeoutMs),
          });
          await response.arrayBuffer();
          if (response.status === 200) return;
        } catch {
          // not acknowledged in time: tried again
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    this.deliveries.add(delivery);
    void delivery.finally(() => this.deliveries.delete(delivery));
    return delivery;
  }

  /** Resolves once every delivery under way has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.deliveries]);
  }

  private async create(callbackUrl: string | undefined, verifyToken: string | undefined): Promise<Reply> {
    if (!callbackUrl) return badRequest("PushSubscription", "callback_url", "missing");
    if (!verifyToken) return badRequest("PushSubscription", "verify_token", "missing");
    if (this.subscription) return badRequest("PushSubscription", "", "already exists");
    const url = URL.parse(callbackUrl);
    if (url === null || !["http:", "https:"].includes(url.protocol) || !["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) {
      return badRequest("PushSubscription", "callback url", "not a loopback http(s) URL (the sandbox calls no other host)");
    }
    const challenge = randomBytes(8).toString("hex");
    url.searchParams.set("hub.mode", "subscribe");
    url.searchParams.set("hub.challenge", challenge);
    url.searchParams.set("hub.verify_token", verifyToken);
    let echoed: unknown;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(callbackTimeoutMs) });
      const text = await response.text();
      if (response.status !== 200) return badRequest("PushSubscription", "callback url", "GET to callback URL does not return 200");
      echoed = (JSON.parse(text) as Record<string, unknown>)["hub.challenge"];
    } catch {
      return badRequest("PushSubscription", "callback url", "GET to callback URL does not return 200");
    }
    if (echoed !== challenge) return badRequest("PushSubscription", "callback url", "not verifiable");
    this.subscription = { id: this.nextId++, callbackUrl, createdAt: new Date(this.clock()).toISOString().replace(/\.\d{3}Z$/, "Z") };
    return jsonReply(201, serializeJson({ id: this.subscription.id }));
  }

  private json(subscription: PushSubscription): { [key: string]: string | number } {
    return {
      id: subscription.id,
      resource_state: 2,
      application_id: this.applicationId,
      callback_url: subscription.callbackUrl,
      created_at: subscription.createdAt,
      updated_at: subscription.createdAt,
    };
  }
}
