/**
 * Where Strava's API description lives for the contract tests: strava/openapi/ in this repository
 * (see its README for where it came from), or STRAVA_OPENAPI_SPEC (a directory, or the path of
 * strava-swagger.json inside it) to test against another copy. Missing files fail the tests that need
 * them, naming the path: the repository carries them, so their absence is a broken checkout, not a
 * reason to skip.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface SpecLocation {
  directory: string;
  swagger: string;
  contract: string;
}

export function locateStravaSpec(): SpecLocation {
  const configured = process.env["STRAVA_OPENAPI_SPEC"];
  let directory = join(repoRoot, "strava", "openapi");
  if (configured) {
    const path = resolve(configured);
    directory = existsSync(path) && statSync(path).isFile() ? dirname(path) : path;
  }
  const swagger = join(directory, "strava-swagger.json");
  const contract = join(directory, "strava-swagger.contract.json");
  for (const file of [swagger, contract]) {
    if (!existsSync(file)) {
      const from = configured ? `STRAVA_OPENAPI_SPEC (${configured})` : "the repository's strava/openapi/";
      throw new Error(
        `Strava's API description is missing: ${file} does not exist in ${from}. Restore it with git checkout -- strava/openapi, or unset STRAVA_OPENAPI_SPEC.`,
      );
    }
  }
  return { directory, swagger, contract };
}
