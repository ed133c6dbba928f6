/**
 * Vitest's global setup: when intervals.icu's OpenAPI description is missing, one notice for the whole run says
 * which tests it skips and how to get the file (test/support/intervals-openapi.ts), however many test files
 * would have said it.
 */
import { locateIntervalsSpec, missingSpecText } from "./intervals-openapi.ts";

export default function announceMissingIntervalsSpec(): void {
  const location = locateIntervalsSpec();
  if (location.found) return;
  const line = "=".repeat(100);
  process.stderr.write(`\n${line}\n${missingSpecText(location, Boolean(process.env["CI"]))}\n${line}\n\n`);
}
