/**
 * The fitness-coaching skill as an MCP client's model should read it, derived in memory from the plugin's
 * `skills/fitness-coaching/SKILL.md` (the one source: the OpenClaw host loads every folder under `skills/`,
 * so no second copy lives there). Four things differ over MCP:
 *
 * - the tools are called by their MCP names (`update_activity`, not the plugin's `fitness_update_activity`);
 * - approval is always an explicit yes in chat before any write: the server cannot know whether a client
 *   holds tool calls for approval itself, and a client's approval prompt is not the athlete reading the
 *   proposal, so the host-approval branch of the workflow and its examples become the chat branch;
 * - the OpenClaw workspace files the skill points to (USER.md, MEMORY.md, the coach's AGENTS.md) do not
 *   exist: what they held is asked of the athlete, or (the training-load thresholds) said in place;
 * - the frontmatter keeps `name` and `description` only: `user-invocable` and `metadata` (an emoji for the
 *   host) are OpenClaw's, and the Skills extension accepts only string-to-string metadata.
 *
 * Each rewrite names the passage it expects and how often; when the skill file changes so that a passage is
 * gone, the transform throws naming the rewrite, so a skill edit cannot silently leave the MCP text telling a
 * model to wait for an Allow button that no MCP client shows. Passages match across line breaks.
 */
import matter from "gray-matter";

/** The plugin's tool-name prefix (plugin/host-tool.ts `toolNamePrefix`; a test keeps the two equal). */
export const pluginToolPrefix = "fitness_";

interface Rewrite {
  /** What the rewrite is for, named in the error when its passage is missing. */
  why: string;
  find: RegExp;
  replace: string;
  /** How many times the passage occurs in the skill. */
  times: number;
}

/** A passage of the skill as a pattern: its words in order, any run of white space between them. */
function passage(text: string): string {
  return text
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("\\s+");
}

/** From the passage `first` to the end of the passage `last`, whatever lies between. */
function span(first: string, last: string): RegExp {
  return new RegExp(`${passage(first)}[\\s\\S]*?${passage(last)}`, "g");
}

function words(text: string): RegExp {
  return new RegExp(passage(text), "g");
}

const bodyRewrites: readonly Rewrite[] = [
  {
    why: "non-negotiable 1: over MCP the yes is always given in chat",
    find: span("1. Nothing reaches Strava without the athlete's yes", "One approval, one write."),
    replace:
      "1. Nothing reaches Strava without the athlete's explicit yes in this chat to the exact proposal you showed, given once. " +
      "Show the proposal as a message of its own, and never call `update_activity`, `create_activity` or `create_upload` " +
      "before that yes, even when the app you run in also asks to approve tool calls: that approval does not replace the " +
      "yes in chat. One yes, one write.",
    times: 1,
  },
  {
    why: "step 4: the chat question ends the proposal",
    find: words("Say yes and I will send it to Strava, or tell me what to change."),
    replace: "Apply this to Strava?",
    times: 4,
  },
  {
    why: "step 4: the host-approval branch goes; the chat branch is the only one",
    find: span("What happens after the yes depends on the host.", "never on an instruction you did not show as a proposal first."),
    replace:
      "After the athlete's yes, call the write tool with exactly the values of the proposal they approved, once. " +
      "Never call it on an instruction you did not show as a proposal first. If the app you run in asks to approve the " +
      "call as well and the athlete refuses it, nothing was written: say so in one plain line and ask what to change.",
    times: 1,
  },
  {
    why: "step 5: the one call is made after the yes in chat",
    find: span("Call `fitness_update_activity` exactly once, now. With host approval", "with chat confirmation it runs at once."),
    replace: "Call `update_activity` exactly once, now, after the athlete's yes.",
    times: 1,
  },
  {
    why: "example 1: the call runs after the yes",
    find: span("5. The athlete taps Allow on the host's approval: the update runs.", 'and the call after "looks good" runs at once.)'),
    replace: "5. The update runs once.",
    times: 1,
  },
  {
    why: "example 2: the call runs after the yes",
    find: words("5. The athlete taps Allow: the update runs."),
    replace: "5. The update runs once.",
    times: 1,
  },
  {
    why: "example 3: the call runs after the yes",
    find: span("6. The athlete taps Allow on the approval. Had they tapped Deny,", "and ask what to change."),
    replace: "6. The update runs once.",
    times: 1,
  },
  {
    why: "example 3: a question leaves the proposal pending",
    find: span(
      "answer the question and call nothing: nothing is written until they approve the proposal in chat",
      "and then allow the host's approval.",
    ),
    replace: "answer the question and call nothing: nothing is written until they approve the proposal in chat.",
    times: 1,
  },
  {
    why: "the athlete's units: no USER.md over MCP",
    find: words("If you do not know their unit, check USER.md or"),
    replace: "If you do not know their unit, check",
    times: 1,
  },
  {
    why: "the venue: no USER.md or MEMORY.md over MCP",
    find: words("(take it from the athlete's words, USER.md or MEMORY.md;"),
    replace: "(take it from the athlete's words or what they told you earlier;",
    times: 1,
  },
  {
    why: "training load: the thresholds of the coach's AGENTS.md, said in place",
    find: words("The coach's rules (AGENTS.md) give the thresholds to flag;"),
    replace:
      "Flag, as rules of thumb: `acute_chronic_ratio` above about 1.5 (about 0.8 to 1.3 is the usual range); a week's " +
      "`load_change_percent` more than 10 to 30 percent; `monotony` above about 2, or `longest_run_without_rest` of 7 days or " +
      "more; `ramp_rate` above about 8 (5 to 8 a week is a steady build, 10 the upper bound: Joe Friel's rule of thumb); " +
      "`form` below about -30 for more than a week (8 or more values below -30 at the end of `trend.form`), quoted with " +
      "`form_percent`;",
    times: 1,
  },
  {
    why: "the tools are this server's",
    find: words("the `fitness_*` tools"),
    replace: "this server's tools",
    times: 1,
  },
];

const descriptionRewrites: readonly Rewrite[] = [
  {
    why: "description: the tools are this server's",
    find: words("with the fitness_* tools"),
    replace: "with this server's tools",
    times: 1,
  },
  {
    why: "description: approval is a yes in chat",
    find: words("asks for approval, then updates it"),
    replace: "asks for the athlete's yes in chat, then updates it",
    times: 1,
  },
];

/** What over MCP must never be left in the text, each with why. */
const leftovers: ReadonlyArray<[RegExp, string]> = [
  [/\bAllow\b|\bDeny\b|\/approve\b/, "the host's approval buttons"],
  [/host approval|the host (asks|holds)/i, "the host-approval branch"],
  [/\b(USER|MEMORY|AGENTS)\.md\b/, "an OpenClaw workspace file"],
];

export interface McpSkillText {
  name: string;
  description: string;
  /** The skill's Markdown without frontmatter: what a prompt carries. */
  body: string;
  /** The whole SKILL.md served through the Skills extension: frontmatter (name, description) and body. */
  markdown: string;
}

/**
 * The MCP text of the skill whose SKILL.md is `skillMarkdown`; `toolNames` are the MCP tool names (the tool
 * table's), so that every `fitness_` name in the skill must be one of them.
 */
export function skillTextForMcp(skillMarkdown: string, toolNames: readonly string[]): McpSkillText {
  const parsed = matter(skillMarkdown);
  const name = parsed.data["name"];
  const description = parsed.data["description"];
  if (typeof name !== "string" || typeof description !== "string") {
    throw new Error("SKILL.md must have a string name and description in its frontmatter.");
  }
  const body = renameTools(applyRewrites(parsed.content, bodyRewrites), toolNames).trim();
  const mcpDescription = renameTools(applyRewrites(description, descriptionRewrites), toolNames);
  for (const [pattern, what] of leftovers) {
    const found = pattern.exec(body) ?? pattern.exec(mcpDescription);
    if (found) throw new Error(`The MCP text of the skill still names ${what} ("${found[0]}"): add a rewrite in skill-text-for-mcp.ts.`);
  }
  // JSON strings are YAML double-quoted scalars: the description's colons and quotes cannot break the frontmatter.
  const markdown = `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(mcpDescription)}\n---\n\n${body}\n`;
  return { name, description: mcpDescription, body, markdown };
}

function applyRewrites(text: string, rewrites: readonly Rewrite[]): string {
  let out = text;
  for (const rewrite of rewrites) {
    const found = out.match(rewrite.find)?.length ?? 0;
    if (found !== rewrite.times) {
      throw new Error(
        `The skill's MCP rewrite "${rewrite.why}" expects its passage ${rewrite.times} time(s) in SKILL.md and found it ${found} time(s): ` +
          "update the rewrite in mcp-adapter/skills-over-mcp/skill-text-for-mcp.ts with the skill.",
      );
    }
    out = out.replace(rewrite.find, () => rewrite.replace);
  }
  return out;
}

/** Every `fitness_<tool>` as `<tool>`; a `fitness_` name that is not a tool of the table is an error. */
function renameTools(text: string, toolNames: readonly string[]): string {
  const known = new Set(toolNames);
  return text.replace(new RegExp(`\\b${pluginToolPrefix}([a-z_]+)\\b`, "g"), (whole, tool: string) => {
    if (!known.has(tool)) throw new Error(`SKILL.md names ${whole}, which is not one of the MCP server's tools (${toolNames.join(", ")}).`);
    return tool;
  });
}
