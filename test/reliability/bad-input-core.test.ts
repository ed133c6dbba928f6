/**
 * Property: any malformed arguments to any tool give an error result that names the problem, and no
 * request leaves the process (nock refuses every connection and counts attempts).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import fc from "fast-check";
import nock from "nock";
import { fileBackedCore, type FileBackedCore } from "../support/core-harness.ts";
import { badCall } from "../support/bad-arguments.ts";
import { runTool } from "../../tools/run-tool.ts";

let core: FileBackedCore;
let attempts = 0;
const count = (): void => {
  attempts++;
};

beforeAll(async () => {
  nock.disableNetConnect();
  nock.emitter.on("no match", count);
  core = await fileBackedCore({
    credentials: { client_id: "1", client_secret: "s", refresh_token: "r", access_token: "a", expires_at: 4_000_000_000 },
  });
});
afterAll(async () => {
  nock.emitter.removeListener("no match", count);
  nock.enableNetConnect();
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
  expect(attempts).toBe(0);
});
