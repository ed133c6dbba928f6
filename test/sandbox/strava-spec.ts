/**
 * Where the contract tests find Strava's API description, which this repository does not hold (it is data
 * from another public repository; strava/openapi/README.md says where it comes from and how to get it), by the
 * rule every upstream's description follows (test/support/api-descriptions.ts): `STRAVA_OPENAPI_SPEC` (a
 * directory holding `strava-swagger.json`, or that file's path), else `../shared/strava-openapi/` beside the
 * checkout. Without a copy the tests in `contractTests` are skipped, and the run says so once.
 */
import {
  locateDescription,
  misconfiguredMessage,
  missingNotice,
  sharedDirectory,
  type ApiDescription,
  type DescriptionLocation,
} from "../support/api-descriptions.ts";

export const stravaDescription: ApiDescription = {
  title: "Strava's API description",
  variable: "STRAVA_OPENAPI_SPEC",
  folder: "strava-openapi",
  file: "strava-swagger.json",
  about: "Strava's API v3 description with its models inlined; strava/openapi/README.md says where it comes from and how to make it",
  tests: [
    { file: "test/sandbox/schema-conformance.test.ts", checks: "the sandbox's answers against Strava's response schemas" },
    { file: "test/sandbox/prism-contract.test.ts", checks: "every tool's requests against a Prism mock of Strava's contract" },
    { file: "test/tools/activity-fields.test.ts", checks: "the `fields` names against Strava's models (its first part)" },
    {
      file: "test/sandbox/strava-openapi-files.test.ts",
      checks: "the copy's SHA-256 against the provenance, and the contract variant's edits",
    },
  ],
};

/** The contract tests that need the description, and what each checks: the notice lists them. */
export const contractTests = stravaDescription.tests;

/** The copy beside the checkout, when STRAVA_OPENAPI_SPEC is not set. */
export const sharedSpecDirectory = sharedDirectory(stravaDescription);

export type SpecLocation = { found: boolean; swagger: string; from: string; configured: boolean };

/** Where the description is looked for, and whether it is there. */
export function locateStravaSpec(env: NodeJS.ProcessEnv = process.env): SpecLocation {
  const { found, path, from, configured } = locateDescription(stravaDescription, env);
  return { found, swagger: path, from, configured };
}

/** The path of strava-swagger.json, or undefined when there is none (the contract tests skip). */
export const stravaSwaggerPath: string | undefined = ((location) => (location.found ? location.swagger : undefined))(locateStravaSpec());

function asDescriptionLocation(location: SpecLocation): DescriptionLocation {
  return { found: location.found, path: location.swagger, from: location.from, configured: location.configured };
}

/** The error for a STRAVA_OPENAPI_SPEC that names no description. */
export function misconfiguredSpecMessage(location: SpecLocation): string {
  return misconfiguredMessage(stravaDescription, asDescriptionLocation(location));
}

/** What the run says, once, when it has no description: what it skipped and how to get the file. */
export function missingSpecNotice(location: SpecLocation): string {
  return missingNotice(stravaDescription, asDescriptionLocation(location));
}
