/**
 * What the inventory makes: the Markdown settings table of docs/operators/settings.md (between two marker
 * lines) and the MCP server's list of variables in its usage text. `npm run docs:settings` writes the table.
 */
import { allSettings, settingsInventory } from "./inventory.ts";

export const tableStart = "<!-- settings table: made by npm run docs:settings from common/settings/inventory.ts; do not edit by hand -->";
export const tableEnd = "<!-- end of settings table -->";

const cell = (value: string): string => value.replace(/\|/g, "\\|");

export function settingsTable(): string {
  const lines: string[] = [tableStart];
  for (const section of settingsInventory) {
    lines.push("", `### ${section.title}`, "", "| Variable | Kind | Default | Meaning | Read by |", "|---|---|---|---|---|");
    for (const setting of section.settings) {
      lines.push(
        `| \`${setting.name}\` | ${cell(setting.type)} | ${cell(setting.defaultText)} | ${cell(setting.meaning)}${setting.secret ? " (a secret: never logged)" : ""} | ${setting.readBy.join(", ")} |`,
      );
    }
  }
  lines.push("", tableEnd);
  return lines.join("\n");
}

/** The variables the MCP server reads, wrapped for a terminal of 100 columns. */
export function serverVariablesText(): string {
  const names = allSettings()
    .filter((setting) => setting.readBy.includes("MCP server"))
    .map((setting) => setting.name);
  const lines: string[] = [];
  let line = "";
  for (const name of names) {
    const next = line === "" ? `  ${name}` : `${line}, ${name}`;
    if (next.length > 98) {
      lines.push(`${line},`);
      line = `  ${name}`;
    } else line = next;
  }
  if (line !== "") lines.push(line);
  return lines.join("\n");
}
