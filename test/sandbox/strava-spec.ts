/**
 * Where the contract tests find Strava's API description, which this repository does not hold (it is data
 * from another public repository; strava/openapi/README.md says where it comes from and how to get it):
 *
 * - `STRAVA_OPENAPI_SPEC`, when set: a directory holding `strava-swagger.json`, or that file's path. Set to a
 *   place with no such file, it is a mistake, and the run stops naming it.
 * - otherwise `../shared/strava-openapi/strava-swagger.json` beside the checkout, where CI keeps a copy.
 *
 * Without a copy the contract tests listed in `contractTests` are skipped, and the run says so once, at its
 * end, with how to get the file (strava-spec-notice.ts, vitest's globalSetup: the test files run in processes
 * of their own, so each of them saying it would say it a dozen times). Only tests read this variable, so it
 * is documented in docs/contributors/testing.md, not in the settings inventory.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The copy beside the checkout, when STRAVA_OPENAPI_SPEC is not set. */
export const sharedSpecDirectory = resolve(repoRoot, "..", "shared", "strava-openapi");

/** The contract tests that need the description, and what each checks: the notice lists them. */
export const contractTests: ReadonlyArray<{ file: string; checks: string }> = [
  { file: "test/sandbox/schema-conformance.test.ts", checks: "the sandbox's answers against Strava's response schemas" },
  { file: "test/sandbox/prism-contract.test.ts", checks: "every tool's requests against a Prism mock of Strava's contract" },
  { file: "test/tools/activity-fields.test.ts", checks: "the `fields` names against Strava's models (its first part)" },
  {
    file: "test/sandbox/strava-openapi-files.test.ts",
    checks: "the copy's SHA-256 against the provenance, and the contract variant's edits",
  },
];

export type SpecLocation =
  { found: true; swagger: string; from: string } | { found: false; swagger: string; from: string; configured: boolean };

/** Where the description is looked for, and whether it is there. */
export function locateStravaSpec(env: NodeJS.ProcessEnv = process.env): SpecLocation {
  const configured = env["STRAVA_OPENAPI_SPEC"];
  if (configured) {
    const path = resolve(configured);
    const swagger = existsSync(path) && statSync(path).isFile() ? path : join(path, "strava-swagger.json");
    return { found: existsSync(swagger), swagger, from: `STRAVA_OPENAPI_SPEC (${configured})`, configured: true };
  }
  const swagger = join(sharedSpecDirectory, "strava-swagger.json");
  return { found: existsSync(swagger), swagger, from: "../shared/strava-openapi/ beside the checkout", configured: false };
}

/** The path of strava-swagger.json, or undefined when there is none (the contract tests skip). */
export const stravaSwaggerPath: string | undefined = ((location) => (location.found ? location.swagger : undefined))(locateStravaSpec());

/** The error for a STRAVA_OPENAPI_SPEC that names no description. */
export function misconfiguredSpecMessage(location: SpecLocation): string {
  return (
    `STRAVA_OPENAPI_SPEC is set to a place without Strava's API description: ${location.swagger} does not exist. ` +
    "Set it to the directory holding strava-swagger.json (or that file's path), or unset it to use ../shared/strava-openapi/ beside the checkout."
  );
}

/** What the run says, once, when it has no description: what it skipped and how to get the file. */
export function missingSpecNotice(location: SpecLocation): string {
  const rule = "=".repeat(100);
  return [
    rule,
    `SKIPPED: Strava's API description is not at ${location.swagger} (${location.from}), so these contract tests did not run:`,
    ...contractTests.map((test) => `  - ${test.file}: ${test.checks}`),
    "To run them, put strava-swagger.json (Strava's API v3 description with its models inlined; strava/openapi/README.md says where it",
    `comes from and how to make it) in ${sharedSpecDirectory}, or set STRAVA_OPENAPI_SPEC to the directory that holds it.`,
    rule,
  ].join("\n");
}
