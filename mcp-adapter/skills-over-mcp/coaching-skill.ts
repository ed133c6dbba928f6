/**
 * The fitness-coaching skill as this server offers it, in the two forms MCP clients take a skill in:
 *
 * - the Skills extension (`io.modelcontextprotocol/skills`: `skills/list`, `skills/get`, and the skill's
 *   file read as the resource `skill://fitness-coaching/SKILL.md`), for clients that load skills;
 * - the prompt `fitness-coaching` (`prompts/list`, `prompts/get`) with one optional argument, `request`
 *   (what the athlete said, quoted after the skill as athlete-request.ts says), which every prompt-capable
 *   client reaches, and which Claude's apps show as a slash command.
 *
 * Both carry the text of skill-text-for-mcp.ts, computed once per process; the extension's entry (its
 * digest and size, checked by the SDK's `skillEntry`) on first use.
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
import { coachingSkillMarkdown } from "./coaching-skill-file.ts";
import { skillTextForMcp, type McpSkillText } from "./skill-text-for-mcp.ts";

export const coachingSkillName = "fitness-coaching";
export const coachingSkillUri = `skill://${coachingSkillName}/SKILL.md`;

export interface CoachingSkill {
  readonly text: McpSkillText;
  /** The extension's entry for skills/list and skills/get. */
  entry(): Promise<Skill>;
  readonly resource: Resource;
  /** The skill file as a resources/read result; undefined for another URI. */
  read(uri: string): ReadResourceResult | undefined;
  readonly prompt: Prompt;
  /** prompts/get of the skill's prompt; throws -32602 on an argument it does not take. */
  getPrompt(args: Record<string, string> | undefined): GetPromptResult;
}

export function coachingSkill(toolNames: readonly string[], skillMarkdown: string = coachingSkillMarkdown): CoachingSkill {
  const text = skillTextForMcp(skillMarkdown, toolNames);
  if (text.name !== coachingSkillName) throw new Error(`SKILL.md is named ${text.name}; the MCP server serves it as ${coachingSkillName}.`);
  let entry: Promise<Skill> | undefined;
  return {
    text,
    entry: () => (entry ??= skillEntry(coachingSkillName, { "SKILL.md": text.markdown })),
    resource: {
      uri: coachingSkillUri,
      name: coachingSkillName,
      title: "Fitness coaching skill",
      description: text.description,
      mimeType: "text/markdown",
      size: Buffer.byteLength(text.markdown),
    },
    read: (uri) => (uri === coachingSkillUri ? { contents: [{ uri, mimeType: "text/markdown", text: text.markdown }] } : undefined),
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
