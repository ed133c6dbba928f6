/**
 * sandbox/server/sandbox-controls.ts in this process: the controls under /_sandbox/ sign an athlete in and revoke
 * their grants, and refuse an athlete the sandbox does not have saying what to send; an unknown control is a 404
 * listing them all; only a loopback address may use them.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandbox, type RunningSandbox } from "../../../sandbox/server.ts";
import { isLoopback } from "../../../sandbox/server/sandbox-controls.ts";

let sandbox: RunningSandbox;
const control = async (name: string, body?: string): Promise<{ status: number; json: unknown }> => {
  const answer = await fetch(`${sandbox.baseUrl}/_sandbox/${name}`, { method: body === undefined ? "GET" : "POST", body });
  return { status: answer.status, json: await answer.json() };
};

beforeAll(async () => {
  sandbox = await startSandbox({ secondAthlete: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe("the sandbox's controls over HTTP", () => {
  test("sign-in names who the authorize page signs in from now on", async () => {
    expect(await control("sign-in", JSON.stringify({ athlete_id: sandbox.secondAthleteId }))).toEqual({
      status: 200,
      json: { signed_in: sandbox.secondAthleteId },
    });
    const redirect = await fetch(
      `${sandbox.authorizeUrl}?client_id=${sandbox.clientId}&redirect_uri=http://127.0.0.1:9/cb&response_type=code&scope=read`,
      {
        redirect: "manual",
      },
    );
    const code = new URL(redirect.headers.get("location") ?? "").searchParams.get("code") ?? "";
    const tokens = await fetch(sandbox.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
        code,
        grant_type: "authorization_code",
      }),
    });
    expect(((await tokens.json()) as { athlete: { id: number } }).athlete.id).toBe(sandbox.secondAthleteId);
    sandbox.signIn(sandbox.athleteId);
  });

  test("deauthorize ends the athlete's grants: the seeded refresh token stops working", async () => {
    const seeded = sandbox.refreshToken();
    expect(sandbox.acceptsRefreshToken(seeded)).toBe(true);
    expect(await control("deauthorize", JSON.stringify({ athlete_id: sandbox.athleteId }))).toEqual({
      status: 200,
      json: { deauthorized: sandbox.athleteId },
    });
    expect(sandbox.acceptsRefreshToken(seeded)).toBe(false);
  });

  test("an athlete the sandbox does not have, or no body, is a 400 saying what to send", async () => {
    expect(await control("sign-in", '{"athlete_id": 5}')).toEqual({
      status: 400,
      json: {
        message: `The sandbox has no athlete 5; it has ${sandbox.athleteId} and ${sandbox.secondAthleteId} (the second one only with secondAthlete / SANDBOX_SECOND_ATHLETE). Send {"athlete_id": <id>}.`,
      },
    });
    expect((await control("deauthorize", "")).status).toBe(400);
  });

  test("an unknown control is a 404 listing the controls", async () => {
    expect(await control("nope")).toEqual({
      status: 404,
      json: {
        message:
          "No sandbox control GET /_sandbox/nope. Controls: POST /_sandbox/faults, POST /_sandbox/expire-tokens, GET /_sandbox/counters, POST /_sandbox/reset-counters, GET /_sandbox/credentials, POST /_sandbox/sign-in, POST /_sandbox/deauthorize.",
      },
    });
  });

  test("only loopback addresses may use them", () => {
    for (const address of ["127.0.0.1", "127.8.9.1", "::1", "::ffff:127.0.0.1"]) expect(isLoopback(address)).toBe(true);
    for (const address of ["10.0.0.1", "::ffff:10.0.0.1", "192.168.1.2", "fe80::1", undefined]) expect(isLoopback(address)).toBe(false);
  });
});
