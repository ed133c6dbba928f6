/**
 * A full run of every tool, with refreshes, rotations, a 401 retry and failures, captures every log
 * line and every result text: none may contain a token, the client secret or the client id's secret
 * companions.
 */
import { expect, it } from "vitest";
import { fileBackedCore } from "../support/core-harness.ts";
import { mockStrava } from "../support/strava-mock.ts";
import { toolTable } from "../../tools/table.ts";
import { testNow } from "../support/test-clock.ts";

const nowMs = testNow;
const secrets = [
  "client-secret-SENTINEL",
  "refresh-SENTINEL-1",
  "access-SENTINEL-1",
  "refresh-SENTINEL-2",
  "access-SENTINEL-2",
  "refresh-SENTINEL-3",
  "access-SENTINEL-3",
];

const validArguments: Record<string, unknown> = {
  get_activities: { per_page: 10 },
  get_activity_by_id: { id: 1 },
  create_activity: { name: "n", sport_type: "Run", start_date_local: "2026-11-21T10:00:00", elapsed_time: 60 },
  update_activity: { id: 1, name: "n" },
  get_activity_zones: { id: 1 },
  get_athlete: {},
  get_athlete_stats: {},
  get_activity_streams: { id: 1 },
  get_club_activities: { id: 1 },
  create_upload: { file: "AAEC", data_type: "fit" },
  get_upload: { id: 1 },
};

it("no secret appears in any log line or result of a full run", async () => {
  const { agent, strava, close } = mockStrava();
  const core = await fileBackedCore({
    credentials: {
      client_id: "1234",
      client_secret: secrets[0],
      refresh_token: secrets[1],
      access_token: secrets[2],
      expires_at: nowMs / 1000 - 5,
    },
    now: () => nowMs,
    dispatcher: agent,
  });
  const token = () => strava.intercept({ path: "/oauth/token", method: "POST" });
  token().reply(200, { access_token: secrets[4], refresh_token: secrets[3], expires_at: nowMs / 1000 + 21600 });
  token().reply(200, { access_token: secrets[6], refresh_token: secrets[5], expires_at: nowMs / 1000 + 21600 });
  token().reply(400, { message: "Bad Request", errors: [{ resource: "RefreshToken", field: "refresh_token", code: "invalid" }] });
  // First call after the refresh gets a 401 (forcing the second refresh), everything else answers.
  strava
    .intercept({ path: (path) => path.startsWith("/api/v3/athlete/activities"), method: "GET" })
    .reply(401, { message: "Authorization Error" });
  strava
    .intercept({ path: () => true, method: "GET" })
    .reply(200, '{"id":9001}')
    .persist();
  strava
    .intercept({ path: (path) => path.startsWith("/api/v3/"), method: "POST" })
    .reply(201, "{}")
    .persist();
  strava
    .intercept({ path: () => true, method: "PUT" })
    .reply(200, "{}")
    .persist();
  const results: string[] = [];
  for (const tool of toolTable) {
    const result = await core.call(tool.name, validArguments[tool.name]);
    results.push(result.content[0].text);
  }
  // A bad argument and a forced failed refresh are logged too.
  results.push((await core.call("get_activities", { per_page: "lots" })).content[0].text);
  await core.deps.tokens.renewAfterRejection(secrets[6]!).catch((error: Error) => results.push(error.message));
  expect(results.slice(0, toolTable.length).every((text) => !text.startsWith("Error"))).toBe(true);
  expect(results.at(-1)).toContain("Strava refused to refresh the access token");
  expect(core.logs.some((line) => line.includes('"event":"token_refreshed"'))).toBe(true);
  const everything = [...core.logs, ...results].join("\n");
  for (const secret of secrets) expect(everything).not.toContain(secret);
  await close();
  await core.cleanup();
});
