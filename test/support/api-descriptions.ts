/**
 * The upstream API descriptions the contract tests read, which this repository does not hold (they are data from
 * other public repositories, kept beside the checkout in ../shared/, each folder with a README saying where it
 * came from and how to refresh it). Strava's (test/sandbox/strava-spec.ts) and intervals.icu's
 * (test/support/intervals-openapi.ts) follow one rule:
 *
 * - the description's variable (STRAVA_OPENAPI_SPEC, INTERVALS_OPENAPI_SPEC), when set: a directory holding the
 *   file, or the file's path. Set to a place without it, it is a mistake, and the run stops naming it;
 * - otherwise `../shared/<folder>/<file>` beside the checkout, where CI keeps a copy.
 *
 * Without a copy the tests that need it are skipped, and the run says so once, at its end, with how to get the
 * file (api-descriptions-notice.ts, vitest's globalSetup: the test files run in processes of their own, so each
 * of them saying it would say it a dozen times). Only tests read these variables, so they are documented in
 * docs/contributors/testing.md, not in the settings inventory.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface ApiDescription {
  /** "Strava's API description", for messages. */
  title: string;
  /** The variable that may name it. */
  variable: string;
  /** Its folder in ../shared/. */
  folder: string;
  /** Its file's name. */
  file: string;
  /** What it is and where its README says it comes from, for the notice. */
  about: string;
  /** The test files that need it, and what each checks: the notice lists them. */
  tests: ReadonlyArray<{ file: string; checks: string }>;
}

export interface DescriptionLocation {
  found: boolean;
  /** The file looked for (where it is, when found). */
  path: string;
  /** Where that place came from, for messages. */
  from: string;
  /** Whether the variable named it (then a missing file is a mistake, not a skip). */
  configured: boolean;
}

/** The copy beside the checkout, when the variable is not set. */
export function sharedDirectory(description: ApiDescription): string {
  return resolve(repoRoot, "..", "shared", description.folder);
}

/** Where the description is looked for, and whether it is there. */
export function locateDescription(description: ApiDescription, env: NodeJS.ProcessEnv = process.env): DescriptionLocation {
  const configured = env[description.variable];
  if (configured) {
    const named = resolve(configured);
    const path = existsSync(named) && statSync(named).isFile() ? named : join(named, description.file);
    return { found: existsSync(path), path, from: `${description.variable} (${configured})`, configured: true };
  }
  const path = join(sharedDirectory(description), description.file);
  return { found: existsSync(path), path, from: `../shared/${description.folder}/ beside the checkout`, configured: false };
}

/** The error for a variable that names no description. */
export function misconfiguredMessage(description: ApiDescription, location: DescriptionLocation): string {
  return (
    `${description.variable} is set to a place without ${description.title}: ${location.path} does not exist. ` +
    `Set it to the directory holding ${description.file} (or that file's path), or unset it to use ../shared/${description.folder}/ beside the checkout.`
  );
}

/** What the run says, once, when it has no description: what it skipped and how to get the file. */
export function missingNotice(description: ApiDescription, location: DescriptionLocation): string {
  const rule = "=".repeat(100);
  return [
    rule,
    `SKIPPED: ${description.title} is not at ${location.path} (${location.from}), so these contract tests did not run:`,
    ...description.tests.map((test) => `  - ${test.file}: ${test.checks}`),
    `To run them, put ${description.file} (${description.about}) in ${sharedDirectory(description)}, or set ${description.variable} to the directory that holds it.`,
    rule,
  ].join("\n");
}
