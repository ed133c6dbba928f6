/**
 * The fitness-coaching skill as this server offers it, in the two forms MCP clients take a skill in:
 *
 * - the Skills extension (`io.modelcontextprotocol/skills`: `skills/list`, `skills/get`, and the skill's files
 *   read as resources: `skill://fitness-coaching/SKILL.md` and the files it names, such as
 *   `skill://fitness-coaching/logging.md`), for clients that load skills;
 * - the prompt `fitness-coaching` (`prompts/list`, `prompts/get`) with one optional argument, `request`
 *   (what the athlete said, quoted after the skill as athlete-request.ts says), which every prompt-capable
 *   client reaches, and which Claude's apps show as a slash command. It carries SKILL.md, the part read before
 *   acting, which names each other file by its URI with what it is for; the model reads the ones its task needs.
 *   Which files those are is never guessed from the words of `request`.
 *
 * Both carry the text of skill-text-for-mcp.ts, computed once per process; the extension's entry (digests and
 * sizes, checked by the SDK's `skillEntry`) on first use.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/server";
import { skillEntry, type Skill } from "@modelcontextprotocol/server/ext/skills";
import { athleteRequestBlock } from "./athlete-request.ts";
import { coachingSkillFiles } from "./coaching-skill-file.ts";
import { servedSkillFiles } from "./served-skill-files.mjs";
import { skillFileUri, skillTextForMcp, type McpSkillText } from "./skill-text-for-mcp.ts";

export const coachingSkillName = "fitness-coaching";
export const coachingSkillUri = skillFileUri(coachingSkillName, "SKILL.md");

export interface CoachingSkill {
  readonly text: McpSkillText;
  /** The extension's entry for skills/list and skills/get. */
  entry(): Promise<Skill>;
  /** Its files as resources: SKILL.md first. */
  readonly resources: readonly Resource[];
  /** A file of the skill as a resources/read result; undefined for another URI. */
  read(uri: string): ReadResourceResult | undefined;
  readonly prompt: Prompt;
  /** prompts/get of the skill's prompt; throws -32602 on an argument it does not take. */
  getPrompt(args: Record<string, string> | undefined): GetPromptResult;
}

export function coachingSkill(
  toolNames: readonly string[],
  skillFiles: Readonly<Record<string, string>> = coachingSkillFiles,
): CoachingSkill {
  const text = skillTextForMcp(skillFiles, toolNames);
  if (text.name !== coachingSkillName) throw new Error(`SKILL.md is named ${text.name}; the MCP server serves it as ${coachingSkillName}.`);
  const byUri = new Map(Object.entries(text.files).map(([path, markdown]) => [skillFileUri(coachingSkillName, path), markdown]));
  const titles = new Map(servedSkillFiles.map(({ path, title }) => [path, title]));
  let entry: Promise<Skill> | undefined;
  return {
    text,
    entry: () => (entry ??= skillEntry(coachingSkillName, text.files)),
    resources: Object.entries(text.files).map(([path, markdown]) => ({
      uri: skillFileUri(coachingSkillName, path),
      name: path === "SKILL.md" ? coachingSkillName : `${coachingSkillName}/${path}`,
      title: titles.get(path) ?? path,
      ...(path === "SKILL.md" ? { description: text.description } : {}),
      mimeType: "text/markdown",
      size: Buffer.byteLength(markdown),
    })),
    read: (uri) => {
      const markdown = byUri.get(uri);
      return markdown === undefined ? undefined : { contents: [{ uri, mimeType: "text/markdown", text: markdown }] };
    },
    prompt: {
      name: coachingSkillName,
      title: "Fitness coaching",
      description: text.description,
      arguments: [
        {
          name: "request",
          description:
            'What the athlete said, for example "log this morning\'s class: back squat 5x5 at 185, then a 20 min AMRAP" or "am I overtraining?" (at most 4,000 characters).',
          required: false,
        },
      ],
    },
    getPrompt(args) {
      const unknown = Object.keys(args ?? {}).filter((name) => name !== "request");
      if (unknown.length > 0) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `The ${coachingSkillName} prompt takes one optional argument, request (what the athlete said); got ${unknown.join(", ")}.`,
        );
      }
      const typed = athleteRequestBlock(coachingSkillName, args?.["request"]);
      return {
        description: text.description,
        messages: [{ role: "user", content: { type: "text", text: `${text.body}${typed}` } }],
      };
    },
  };
}
