/**
 * The copy of Strava's API description kept in strava/openapi/: the contract copy is exactly what
 * scripts/strava-contract-copy.ts derives from the bundle (so a refreshed bundle gets our edits again),
 * and the bundle is the one the README's provenance names.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bundlePath, contractConsumes, contractCopyOf, contractPath } from "../../scripts/strava-contract-copy.ts";

describe("strava/openapi", () => {
  it("the contract copy is the bundle with our edits, as npm run openapi:contract writes it", () => {
    expect(readFileSync(contractPath, "utf8")).toBe(contractCopyOf(readFileSync(bundlePath, "utf8")));
  });

  it("the edits are the only difference, and each names an operation the bundle has", () => {
    const bundle = JSON.parse(readFileSync(bundlePath, "utf8")) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const contract = JSON.parse(readFileSync(contractPath, "utf8")) as typeof bundle;
    for (const edit of contractConsumes) {
      expect(bundle.paths[edit.path]?.[edit.method]?.["consumes"]).toBeUndefined();
      expect(contract.paths[edit.path]?.[edit.method]?.["consumes"]).toEqual(edit.consumes);
      delete contract.paths[edit.path]?.[edit.method]?.["consumes"];
    }
    expect(contract).toEqual(bundle);
  });

  it("the bundle is the one whose SHA-256 the README records", () => {
    const recorded = /SHA-256 of `strava-swagger.json` as copied: `([0-9a-f]{64})`/.exec(
      readFileSync(new URL("../../strava/openapi/README.md", import.meta.url), "utf8"),
    )?.[1];
    expect(createHash("sha256").update(readFileSync(bundlePath)).digest("hex")).toBe(recorded);
  });

  it("an edit naming an operation the bundle lacks stops with the fix", () => {
    expect(() => contractCopyOf(JSON.stringify({ paths: {} }))).toThrow(/POST \/activities is not in the bundle.*review contractConsumes/);
  });
});
