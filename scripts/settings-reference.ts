/**
 * `npm run docs:settings`: writes the settings table of docs/operators/settings.md from the settings
 * inventory (common/settings/inventory.ts), between its two marker lines. A test keeps the page equal to
 * what this writes, so a variable is declared in one place and described there.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { settingsTable, tableEnd, tableStart } from "../common/settings/settings-reference.ts";

export const settingsPage = fileURLToPath(new URL("../docs/operators/settings.md", import.meta.url));

/** The page with its table made anew from the inventory. */
export function pageWithTable(page: string): string {
  const start = page.indexOf(tableStart);
  const end = page.indexOf(tableEnd);
  if (start < 0 || end < start)
    throw new Error(`${settingsPage} has lost its marker lines; put back ${tableStart} and ${tableEnd} where the table goes.`);
  return `${page.slice(0, start)}${settingsTable()}${page.slice(end + tableEnd.length)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(settingsPage, pageWithTable(readFileSync(settingsPage, "utf8")));
  console.error(`wrote the settings table of ${settingsPage}`);
}
