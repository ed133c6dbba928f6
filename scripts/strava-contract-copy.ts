/**
 * `npm run openapi:contract`: derives strava/openapi/strava-swagger.contract.json from the bundle of
 * Strava's published description beside it, adding the request content types the published document
 * leaves out so that a validating mock (Prism) checks request bodies instead of answering 415 to them.
 * The edits live here, as code, so that refreshing the bundle re-applies them; a test keeps the
 * committed copy equal to what this writes. Offline: it reads and writes files only.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const openapiDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../strava/openapi");

interface SwaggerDocument {
  paths: Record<string, Record<string, { consumes?: string[] } | undefined> | undefined>;
}

/** The local edits: operation, and the content types it takes (Strava accepts both, its document names neither). */
export const contractConsumes: ReadonlyArray<{ path: string; method: string; consumes: string[] }> = [
  { path: "/activities", method: "post", consumes: ["application/x-www-form-urlencoded", "multipart/form-data"] },
  { path: "/activities/{id}", method: "put", consumes: ["application/json"] },
];

/** The contract copy's text, from the bundle's text. */
export function contractCopyOf(bundleText: string): string {
  const document = JSON.parse(bundleText) as SwaggerDocument;
  for (const edit of contractConsumes) {
    const operation = document.paths[edit.path]?.[edit.method];
    if (operation === undefined)
      throw new Error(
        `${edit.method.toUpperCase()} ${edit.path} is not in the bundle: Strava's description changed; review contractConsumes.`,
      );
    operation.consumes = edit.consumes;
  }
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const bundlePath = join(openapiDirectory, "strava-swagger.json");
export const contractPath = join(openapiDirectory, "strava-swagger.contract.json");

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(contractPath, contractCopyOf(readFileSync(bundlePath, "utf8")));
  process.stderr.write(`wrote ${contractPath}\n`);
}
