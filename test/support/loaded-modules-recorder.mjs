/**
 * A preload for tests of what a process loads (`node --import <this file> ...`): as the process exits, it writes
 * Node's list of the modules the process loaded (`process.moduleLoadList`, built-ins as "NativeModule <id>")
 * to the file LOADED_MODULES_FILE names, one per line. It uses only what Node has loaded before any preload.
 */
import { writeFileSync } from "node:fs";

const file = process.env["LOADED_MODULES_FILE"];
if (file === undefined) throw new Error("LOADED_MODULES_FILE must name the file for the list of loaded modules");
process.on("exit", () => writeFileSync(file, `${process.moduleLoadList.join("\n")}\n`));
