/**
 * The contract variant of Strava's API description, made in memory from the description itself: the same
 * document with the request content types the published one leaves out, so that a validating mock (Prism)
 * checks request bodies instead of answering 415 to every create and update. The edits live here, as code,
 * so a refreshed description gets them again; Prism reads a file, so `writeContractCopy` puts the variant in
 * a scratch directory for it. Nothing of it is kept in the repository.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

interface SwaggerDocument {
  paths: Record<string, Record<string, { consumes?: string[] } | undefined> | undefined>;
}

/** The edits: operation, and the content types it takes (Strava accepts them; its document names none). */
export const contractConsumes: ReadonlyArray<{ path: string; method: string; consumes: string[] }> = [
  { path: "/activities", method: "post", consumes: ["application/x-www-form-urlencoded", "multipart/form-data"] },
  { path: "/activities/{id}", method: "put", consumes: ["application/json"] },
];

/** The contract variant's text, from the description's text. */
export function contractCopyOf(descriptionText: string): string {
  const document = JSON.parse(descriptionText) as SwaggerDocument;
  for (const edit of contractConsumes) {
    const operation = document.paths[edit.path]?.[edit.method];
    if (operation === undefined)
      throw new Error(
        `${edit.method.toUpperCase()} ${edit.path} is not in Strava's API description: the description changed; review contractConsumes.`,
      );
    operation.consumes = edit.consumes;
  }
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Writes the contract variant of the description at `swaggerPath` into `directory`; returns its path. */
export async function writeContractCopy(swaggerPath: string, directory: string): Promise<string> {
  const path = join(directory, "strava-swagger.contract.json");
  await writeFile(path, contractCopyOf(await readFile(swaggerPath, "utf8")));
  return path;
}
