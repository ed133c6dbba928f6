/**
 * vitest's globalSetup for `npm test`: runs once for the whole run, in vitest's own process (the test files
 * run in forked ones), so the run says once, and at its end where it is read, which contract tests it skipped
 * for want of Strava's API description and how to get the file (strava-spec.ts). A STRAVA_OPENAPI_SPEC that
 * names no description stops the run before any test, naming it.
 */
import { locateStravaSpec, misconfiguredSpecMessage, missingSpecNotice } from "./strava-spec.ts";

export default function sayOnceWhatIsSkipped(): (() => void) | undefined {
  const location = locateStravaSpec();
  if (location.found) return undefined;
  if (location.configured) throw new Error(misconfiguredSpecMessage(location));
  return () => {
    process.stderr.write(`\n${missingSpecNotice(location)}\n\n`);
  };
}
