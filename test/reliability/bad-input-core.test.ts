/**
 * Property: any malformed arguments to any tool give an error result that names the problem, and no
 * request leaves the process (the connection layer is a MockAgent with no answers, which counts requests).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import fc from "fast-check";
import { fileBackedCore, type FileBackedCore } from "../support/core-harness.ts";
import { badCall } from "../support/bad-arguments.ts";
import { mockStrava, type StravaMock } from "../support/strava-mock.ts";
import { runTool } from "../../tools/runner/run-tool.ts";

let core: FileBackedCore;
let mock: StravaMock;

beforeAll(async () => {
  mock = mockStrava();
  core = await fileBackedCore({
    credentials: { client_id: "1", client_secret: "s", refresh_token: "r", access_token: "a", expires_at: 4_000_000_000 },
    dispatcher: mock.agent,
  });
});
afterAll(async () => {
  await mock.close();
  await core.cleanup();
});

it("malformed arguments never reach the network and always name the problem", async () => {
  await fc.assert(
    fc.asyncProperty(badCall(), async ({ tool, args, mustMention }) => {
      const result = await runTool(tool, args, core.deps);
      expect(result.isError).toBe(true);
      const text = result.content[0].text;
      expect(text.startsWith("Error: ")).toBe(true);
      expect(text).toContain(mustMention);
      expect(text).not.toMatch(/Internal error/);
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 1500) },
  );
  expect(mock.requests()).toBe(0);
});
