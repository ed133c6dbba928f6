/**
 * Strava's API description as the contract tests use it, from outside the repository (strava-spec.ts): the
 * copy is the one strava/openapi/README.md's provenance names (its SHA-256), and the contract variant made
 * from it in memory (strava-contract.ts) differs only by our edits, each on an operation the description has.
 * Also, with or without a copy: every test file that reads the description is in the list the run's notice
 * names when it skips them, and the repository holds no copy of it.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { contractConsumes, contractCopyOf } from "./strava-contract.ts";
import { contractTests, locateStravaSpec, missingSpecNotice, sharedSpecDirectory, stravaSwaggerPath } from "./strava-spec.ts";

const repoRoot = resolve(import.meta.dirname, "../..");

// Without the description the run says once what it skipped (strava-spec-notice.ts).
describe.skipIf(stravaSwaggerPath === undefined)("the copy of Strava's API description", () => {
  const text = stravaSwaggerPath === undefined ? "" : readFileSync(stravaSwaggerPath, "utf8");

  it("is the one whose SHA-256 strava/openapi/README.md records", () => {
    const recorded = /SHA-256 of `strava-swagger.json` as copied: `([0-9a-f]{64})`/.exec(
      readFileSync(join(repoRoot, "strava/openapi/README.md"), "utf8"),
    )?.[1];
    expect(createHash("sha256").update(text).digest("hex"), "a refreshed copy: update the provenance in strava/openapi/README.md").toBe(
      recorded,
    );
  });

  it("its contract variant differs only by the edits, each on an operation the description has", () => {
    const description = JSON.parse(text) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const contract = JSON.parse(contractCopyOf(text)) as typeof description;
    for (const edit of contractConsumes) {
      expect(description.paths[edit.path]?.[edit.method]?.["consumes"]).toBeUndefined();
      expect(contract.paths[edit.path]?.[edit.method]?.["consumes"]).toEqual(edit.consumes);
      delete contract.paths[edit.path]?.[edit.method]?.["consumes"];
    }
    expect(contract).toEqual(description);
  });
});

describe("where the contract tests find the description", () => {
  it("an edit naming an operation the description lacks stops with the fix", () => {
    expect(() => contractCopyOf(JSON.stringify({ paths: {} }))).toThrow(
      /POST \/activities is not in Strava's API description.*review contractConsumes/,
    );
  });

  it("every test file that reads it is named in the notice of a run without it", () => {
    const readers: string[] = [];
    const walk = (directory: string): void => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const path = join(directory, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".test.ts") && readFileSync(path, "utf8").includes("stravaSwaggerPath"))
          readers.push(relative(repoRoot, path));
      }
    };
    walk(join(repoRoot, "test"));
    expect(contractTests.map((test) => test.file).sort()).toEqual(readers.sort());
    const notice = missingSpecNotice(locateStravaSpec({}));
    for (const test of contractTests) expect(notice).toContain(test.file);
    expect(notice).toContain(`in ${sharedSpecDirectory}, or set STRAVA_OPENAPI_SPEC`);
  });

  it("looks in ../shared/strava-openapi/ beside the checkout, or where STRAVA_OPENAPI_SPEC says", () => {
    expect(locateStravaSpec({}).swagger).toBe(resolve(repoRoot, "../shared/strava-openapi/strava-swagger.json"));
    expect(locateStravaSpec({ STRAVA_OPENAPI_SPEC: "/nowhere/spec" })).toEqual({
      found: false,
      swagger: "/nowhere/spec/strava-swagger.json",
      from: "STRAVA_OPENAPI_SPEC (/nowhere/spec)",
      configured: true,
    });
  });

  it("the repository holds no copy of it", () => {
    const held = readdirSync(join(repoRoot, "strava/openapi"));
    expect(held).toEqual(["README.md"]);
  });
});
