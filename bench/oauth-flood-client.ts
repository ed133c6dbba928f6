/**
 * The attacker's side of `npm run bench:oauth-abuse`, in a process of its own so that its work does not
 * slow the legitimate client's measurements: `tsx bench/oauth-flood-client.ts <kind> <target> <count>
 * <streams> [subscription id] [athlete id]`, where the target is the server's origin (the webhook's address for
 * `webhooks`) and kind is
 *
 * - `fill`: registrations from as many sources as it takes (20 each, each in an IPv4 /24 of its own, since a
 *   network holds at most 50 of the places), to fill the unused places;
 * - `registrations-one-source`: registrations, each stream from one source of its own (mostly 429);
 * - `registrations-many-sources`: registrations, each from a new source (all accepted, each evicting one);
 * - `webhooks`: forged deauthorizations of the athlete with this deployment's subscription, each from a new source.
 *
 * Prints one JSON line: the answers by status.
 */
const [kind = "", target = "", countText = "0", streamsText = "1", subscription = "0", athlete = "0"] = process.argv.slice(2);
const count = Number(countText);
const streams = Number(streamsText);
const statuses: Record<string, number> = {};
let next = 0;

function source(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

async function one(n: number, stream: number): Promise<number> {
  if (kind === "webhooks") {
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": source(n) },
      body: JSON.stringify({
        aspect_type: "update",
        object_type: "athlete",
        object_id: Number(athlete),
        owner_id: Number(athlete),
        subscription_id: Number(subscription),
        event_time: 1_700_000_000,
        updates: { authorized: "false" },
      }),
    });
    await response.arrayBuffer();
    return response.status;
  }
  const from =
    kind === "fill" ? `10.200.${Math.floor(n / 20)}.1` : kind === "registrations-one-source" ? `192.0.2.${stream}` : source(100_000 + n);
  const response = await fetch(`${target}/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify({ client_name: `Flood ${n}`, redirect_uris: ["http://127.0.0.1:47615/cb"], token_endpoint_auth_method: "none" }),
  });
  await response.arrayBuffer();
  return response.status;
}

await Promise.all(
  Array.from({ length: streams }, async (_, stream) => {
    for (;;) {
      const n = next++;
      if (n >= count) return;
      const status = await one(n, stream).catch(() => 0);
      statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
    }
  }),
);
console.log(JSON.stringify({ kind, count, streams, statuses }));
