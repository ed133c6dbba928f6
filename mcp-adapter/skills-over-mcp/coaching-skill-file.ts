/**
 * The plugin's skill file, the one source of the skill served over MCP. From the TypeScript sources it is
 * read beside them; the server's bundles embed it instead (mcp-adapter/embed-at-build.mjs replaces this
 * module), since a bundle runs where no skills/ folder lies next to it (the hosted function).
 */
import { readFileSync } from "node:fs";

export const coachingSkillMarkdown: string = readFileSync(new URL("../../skills/fitness-coaching/SKILL.md", import.meta.url), "utf8");
