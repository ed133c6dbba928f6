/**
 * The sandbox's second athlete and push subscriptions: who is signed in at the authorize page decides
 * whose grant a code makes; each athlete's token sees only their own data; the push subscription is
 * validated with hub.challenge before it exists, and an athlete revoking the application ends their
 * grants and pushes the deauthorization event to the callback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";

let sandbox: RunningSandbox;
let callback: Server;
let callbackUrl = "";
const events: Record<string, unknown>[] = [];
let verifyToken = "right";

beforeAll(async () => {
  sandbox = await startSandbox({ secondAthlete: true });
  callback = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "GET") {
      if (url.searchParams.get("hub.verify_token") !== verifyToken) return void response.writeHead(403).end();
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ "hub.challenge": url.searchParams.get("hub.challenge") }));
      return;
    }
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      events.push(JSON.parse(body) as Record<string, unknown>);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/webhook`;
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise<void>((resolve) => callback.close(() => resolve()));
});

async function tokensFor(athleteId: number): Promise<{ access_token: string; refresh_token: string; athlete: { id: number } }> {
  sandbox.signIn(athleteId);
  const redirect = await fetch(
    `${sandbox.authorizeUrl}?client_id=${sandbox.clientId}&redirect_uri=http://127.0.0.1:9/cb&response_type=code&scope=read,activity:read_all,activity:write,profile:read_all`,
    {
      redirect: "manual",
    },
  );
  const code = new URL(redirect.headers.get("location") ?? "").searchParams.get("code") ?? "";
  const answer = await fetch(sandbox.tokenUrl, {
    method: "POST",
    body: new URLSearchParams({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret, code, grant_type: "authorization_code" }),
  });
  return (await answer.json()) as { access_token: string; refresh_token: string; athlete: { id: number } };
}

describe("the sandbox's athletes", () => {
  it("a code is for whoever is signed in, and each token sees only its athlete's data", async () => {
    const second = sandbox.secondAthleteId as number;
    const maya = await tokensFor(sandbox.athleteId);
    const jonas = await tokensFor(second);
    expect(maya.athlete.id).toBe(sandbox.athleteId);
    expect(jonas.athlete.id).toBe(second);
    const get = async (token: string, path: string) =>
      fetch(`${sandbox.apiBase}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await (await get(jonas.access_token, "/athlete")).json()) as { firstname: string }).firstname).toBe("Jonas");
    const mayaIds = ((await (await get(maya.access_token, "/athlete/activities?per_page=200")).json()) as { id: number }[]).map(
      (a) => a.id,
    );
    const jonasList = (await (await get(jonas.access_token, "/athlete/activities?per_page=200")).json()) as {
      id: number;
      athlete: { id: number };
    }[];
    expect(jonasList.every((a) => a.athlete.id === second)).toBe(true);
    expect(jonasList.some((a) => mayaIds.includes(a.id))).toBe(false);
    expect((await get(jonas.access_token, `/activities/${mayaIds[0]}`)).status).toBe(404);
    expect((await get(jonas.access_token, `/athletes/${sandbox.athleteId}/stats`)).status).toBe(403);
    expect(() => sandbox.signIn(1)).toThrow(/no athlete 1/);
  });

  it("a push subscription is validated first; revoking the application ends the athlete's grants and pushes the event", async () => {
    const subscribe = () =>
      fetch(`${sandbox.apiBase}/push_subscriptions`, {
        method: "POST",
        body: new URLSearchParams({
          client_id: sandbox.clientId,
          client_secret: sandbox.clientSecret,
          callback_url: callbackUrl,
          verify_token: "right",
        }),
      });
    verifyToken = "other";
    expect((await subscribe()).status).toBe(400);
    verifyToken = "right";
    const created = await subscribe();
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect((await subscribe()).status).toBe(400);
    const listed = (await (
      await fetch(`${sandbox.apiBase}/push_subscriptions?client_id=${sandbox.clientId}&client_secret=${sandbox.clientSecret}`)
    ).json()) as { id: number; callback_url: string }[];
    expect(listed).toMatchObject([{ id, callback_url: callbackUrl }]);

    const jonas = await tokensFor(sandbox.secondAthleteId as number);
    await sandbox.deauthorize(sandbox.secondAthleteId as number);
    expect(events.at(-1)).toMatchObject({
      aspect_type: "update",
      object_type: "athlete",
      object_id: sandbox.secondAthleteId,
      owner_id: sandbox.secondAthleteId,
      subscription_id: id,
      updates: { authorized: "false" },
    });
    expect(sandbox.acceptsRefreshToken(jonas.refresh_token)).toBe(false);
    expect((await fetch(`${sandbox.apiBase}/athlete`, { headers: { authorization: `Bearer ${jonas.access_token}` } })).status).toBe(401);
    const deleted = await fetch(
      `${sandbox.apiBase}/push_subscriptions/${id}?client_id=${sandbox.clientId}&client_secret=${sandbox.clientSecret}`,
      { method: "DELETE" },
    );
    expect(deleted.status).toBe(204);
  });
});
