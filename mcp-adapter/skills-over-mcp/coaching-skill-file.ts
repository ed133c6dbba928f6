/**
 * The plugin's skill files, the one source of the skill served over MCP: those served-skill-files.mjs names, by path
 * in the skill's folder. From the TypeScript sources they are read beside them; the server's bundles embed them
 * instead (mcp-adapter/embed-at-build.mjs replaces this module), since a bundle runs where no skills/ folder lies
 * next to it (the hosted function).
 */
import { readFileSync } from "node:fs";
import { servedSkillFiles } from "./served-skill-files.mjs";

export const coachingSkillFiles: Readonly<Record<string, string>> = Object.fromEntries(
  servedSkillFiles.map(({ path }) => [path, readFileSync(new URL(`../../skills/fitness-coaching/${path}`, import.meta.url), "utf8")]),
);

/** SKILL.md, the part a model reads before it acts. */
export const coachingSkillMarkdown: string = coachingSkillFiles["SKILL.md"] ?? "";
