/**
 * Where Strava's official API description lives for the contract tests: STRAVA_OPENAPI_SPEC (a
 * directory, or the path of strava-swagger.json inside it), else ../shared/strava-openapi/ beside the
 * repository. Absent in CI, the tests fail; absent elsewhere, they are skipped with a loud reason.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface SpecLocation {
  found: boolean;
  directory: string;
  swagger: string;
  contract: string;
  /** Why it is missing and how to provide it (when not found). */
  reason: string;
}

export function locateStravaSpec(): SpecLocation {
  const configured = process.env["STRAVA_OPENAPI_SPEC"];
  let directory = resolve(repoRoot, "../shared/strava-openapi");
  if (configured) {
    const path = resolve(configured);
    directory = existsSync(path) && statSync(path).isFile() ? dirname(path) : path;
  }
  const swagger = join(directory, "strava-swagger.json");
  const contract = join(directory, "strava-swagger.contract.json");
  const found = existsSync(swagger) && existsSync(contract);
  const reason = found
    ? ""
    : `Strava's API description is missing: expected ${swagger} and ${contract}. ` +
      "Check out the shared/ directory beside this repository, or set STRAVA_OPENAPI_SPEC to the directory holding strava-swagger.json.";
  return { found, directory, swagger, contract, reason };
}

/** Call at the top of a contract test file: says loudly why it is skipped, and whether it must fail instead (CI). */
export function specPresence(spec: SpecLocation, what: string): { run: boolean; failInstead: boolean } {
  if (spec.found) return { run: true, failInstead: false };
  if (process.env["CI"]) return { run: false, failInstead: true };
  console.warn(`\n*** SKIPPING ${what}: ${spec.reason} ***\n`);
  return { run: false, failInstead: false };
}
