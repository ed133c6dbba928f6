/**
 * Setup file of `npm test`: each test file's in-process plugin and server code keeps its rescue copies of new
 * tokens (credentials/rescue/rescue-directory.ts) in a directory of its own. In the shared default one, a copy left by
 * one file (a save refused on purpose) could meet another file's secret of the same name whose sandbox, with
 * the same seed, started from the same refresh token, and be saved there.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const directory = mkdtempSync(join(tmpdir(), "test-token-rescue-"));
process.env["FITNESS_TOKEN_RESCUE_DIR"] = directory;
process.once("exit", () => rmSync(directory, { recursive: true, force: true }));
