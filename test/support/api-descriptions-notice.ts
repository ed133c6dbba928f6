/**
 * vitest's globalSetup for `npm test`: runs once for the whole run, in vitest's own process (the test files run
 * in forked ones), so the run says once, at its end where it is read, which contract tests it skipped for want of
 * an upstream's API description and how to get the file (api-descriptions.ts). A variable that names no
 * description stops the run before any test, naming it.
 */
import { locateDescription, misconfiguredMessage, missingNotice } from "./api-descriptions.ts";
import { stravaDescription } from "../sandbox/strava-spec.ts";
import { intervalsDescription } from "./intervals-openapi.ts";

export default function sayOnceWhatIsSkipped(): (() => void) | undefined {
  const missing: string[] = [];
  for (const description of [stravaDescription, intervalsDescription]) {
    const location = locateDescription(description);
    if (location.found) continue;
    if (location.configured) throw new Error(misconfiguredMessage(description, location));
    missing.push(missingNotice(description, location));
  }
  if (missing.length === 0) return undefined;
  return () => {
    process.stderr.write(`\n${missing.join("\n\n")}\n\n`);
  };
}
