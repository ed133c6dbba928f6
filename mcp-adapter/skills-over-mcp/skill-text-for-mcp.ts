/**
 * The fitness-coaching skill as an MCP client's model should read it, derived in memory from the plugin's files in
 * `skills/fitness-coaching/` (the one source: the OpenClaw host loads every folder under `skills/`, so no second copy
 * lives there): SKILL.md, the part read before acting, and the files it names for the tasks that need them
 * (served-skill-files.mjs). Five things differ over MCP:
 *
 * - the tools are called by their MCP names (`update_activity`, not the plugin's `fitness_update_activity`);
 * - the files SKILL.md names are this server's resources, named by URI (`skill://fitness-coaching/logging.md`), not
 *   files beside it read with the host's `read` tool;
 * - approval is always an explicit yes in chat before any write: the server cannot know whether a client
 *   holds tool calls for approval itself, and a client's approval prompt is not the athlete reading the
 *   proposal, so the host-approval branch of the workflow and its examples become the chat branch;
 * - the OpenClaw workspace files the skill points to (USER.md, MEMORY.md) do not exist: what they held is asked
 *   of the athlete;
 * - the frontmatter keeps `name` and `description` only: `user-invocable` and `metadata` (an emoji for the
 *   host) are OpenClaw's, and the Skills extension accepts only string-to-string metadata.
 *
 * Each rewrite names its file, the passage it expects and how often; when a skill file changes so that a passage is
 * gone, the transform throws naming the rewrite, so a skill edit cannot silently leave the MCP text telling a
 * model to wait for an Allow button that no MCP client shows. Passages match across line breaks.
 */
import matter from "gray-matter";

/** The plugin's tool-name prefix (plugin/host-tool.ts `toolNamePrefix`; a test keeps the two equal). */
export const pluginToolPrefix = "fitness_";

interface Rewrite {
  /** The skill file it applies to (a path in the skill's folder). */
  file: string;
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
    file: "SKILL.md",
    why: "non-negotiable 1: over MCP the yes is always given in chat",
    find: span("1. Nothing reaches the log without the athlete's yes", "One approval, one write."),
    replace:
      "1. Nothing reaches the log without the athlete's explicit yes in this chat to the exact proposal you showed, given once. " +
      "Show the proposal as a message of its own, and never call `update_activity`, `create_activity` or `create_upload` " +
      "before that yes, even when the app you run in also asks to approve tool calls: that approval does not replace the " +
      "yes in chat. One yes, one write.",
    times: 1,
  },
  {
    file: "SKILL.md",
    why: "the files SKILL.md names are this server's resources",
    find: words("Each file is in this skill's folder, beside this SKILL.md: read it with `read` first."),
    replace: "Each file is a resource of this server: read it (resources/read) at the URI given, first.",
    times: 1,
  },
  {
    file: "SKILL.md",
    why: "the tools are this server's",
    find: words("the `fitness_*` tools"),
    replace: "this server's tools",
    times: 1,
  },
  {
    file: "logging.md",
    why: "step 4: the chat question ends the proposal",
    find: words("Say yes and I will send it to your log, or tell me what to change."),
    replace: "Apply this to your log?",
    times: 4,
  },
  {
    file: "logging.md",
    why: "step 4: the host-approval branch goes; the chat branch is the only one",
    find: span("What happens after the yes depends on the host.", "never on an instruction you did not show as a proposal first."),
    replace:
      "After the athlete's yes, call the write tool with exactly the values of the proposal they approved, once. " +
      "Never call it on an instruction you did not show as a proposal first. If the app you run in asks to approve the " +
      "call as well and the athlete refuses it, nothing was written: say so in one plain line and ask what to change.",
    times: 1,
  },
  {
    file: "logging.md",
    why: "step 5: the one call is made after the yes in chat",
    find: span("Call `fitness_update_activity` exactly once, now. With host approval", "with chat confirmation it runs at once."),
    replace: "Call `update_activity` exactly once, now, after the athlete's yes.",
    times: 1,
  },
  {
    file: "logging.md",
    why: "example 1: the call runs after the yes",
    find: span("5. The athlete taps Allow on the host's approval: the update runs.", 'and the call after "looks good" runs at once.)'),
    replace: "5. The update runs once.",
    times: 1,
  },
  {
    file: "logging.md",
    why: "example 2: the call runs after the yes",
    find: words("5. The athlete taps Allow: the update runs."),
    replace: "5. The update runs once.",
    times: 1,
  },
  {
    file: "logging.md",
    why: "example 3: the call runs after the yes",
    find: span("6. The athlete taps Allow on the approval. Had they tapped Deny,", "and ask what to change."),
    replace: "6. The update runs once.",
    times: 1,
  },
  {
    file: "logging.md",
    why: "example 3: a question leaves the proposal pending",
    find: span(
      "answer the question and call nothing: nothing is written until they approve the proposal in chat",
      "and then allow the host's approval.",
    ),
    replace: "answer the question and call nothing: nothing is written until they approve the proposal in chat.",
    times: 1,
  },
  {
    file: "logging.md",
    why: "the athlete's units: no USER.md over MCP",
    find: words("If you do not know their unit, check USER.md or the profile"),
    replace: "If you do not know their unit, check the profile",
    times: 1,
  },
  {
    file: "logging.md",
    why: "the venue: no USER.md or MEMORY.md over MCP",
    find: words("(take it from the athlete's words, USER.md or MEMORY.md;"),
    replace: "(take it from the athlete's words or what they told you earlier;",
    times: 1,
  },
];

const descriptionRewrites: readonly Rewrite[] = [
  {
    file: "SKILL.md",
    why: "description: the tools are this server's",
    find: words("with the fitness_* tools"),
    replace: "with this server's tools",
    times: 1,
  },
  {
    file: "SKILL.md",
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
  [/with `read`|this skill's folder/, "the host's way of reading the skill's files"],
];

export interface McpSkillText {
  name: string;
  description: string;
  /** SKILL.md's Markdown without frontmatter: what the prompt carries. */
  body: string;
  /** The whole SKILL.md served through the Skills extension: frontmatter (name, description) and body. */
  markdown: string;
  /** Every served file's MCP text by its path in the skill's folder, SKILL.md's being `markdown`. */
  files: Readonly<Record<string, string>>;
}

/** A file of the skill as a resource URI of this server. */
export function skillFileUri(skillName: string, path: string): string {
  return `skill://${skillName}/${path}`;
}

/**
 * The MCP text of the skill whose files are `skillFiles` (by path in its folder, SKILL.md among them); `toolNames`
 * are the MCP tool names (every table's), so that every `fitness_` name in the skill must be one of them.
 */
export function skillTextForMcp(skillFiles: Readonly<Record<string, string>>, toolNames: readonly string[]): McpSkillText {
  const skillMarkdown = skillFiles["SKILL.md"];
  if (skillMarkdown === undefined) throw new Error("The skill has no SKILL.md.");
  const parsed = matter(skillMarkdown);
  const name = parsed.data["name"];
  const description = parsed.data["description"];
  if (typeof name !== "string" || typeof description !== "string") {
    throw new Error("SKILL.md must have a string name and description in its frontmatter.");
  }
  for (const rewrite of [...bodyRewrites, ...descriptionRewrites]) {
    if (skillFiles[rewrite.file] === undefined)
      throw new Error(`The skill's MCP rewrite "${rewrite.why}" is for ${rewrite.file}, which is not served.`);
  }
  const mcpText = (path: string, text: string): string =>
    namesAsUris(
      renameTools(
        applyRewrites(
          text,
          bodyRewrites.filter((rewrite) => rewrite.file === path),
        ),
        toolNames,
      ),
      name,
      Object.keys(skillFiles),
    ).trim();
  const body = mcpText("SKILL.md", parsed.content);
  const mcpDescription = renameTools(applyRewrites(description, descriptionRewrites), toolNames);
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(skillFiles)) if (path !== "SKILL.md") files[path] = `${mcpText(path, text)}\n`;
  for (const [path, text] of [["SKILL.md", `${body}\n${mcpDescription}`], ...Object.entries(files)] as const) {
    for (const [pattern, what] of leftovers) {
      const found = pattern.exec(text);
      if (found)
        throw new Error(`The MCP text of the skill's ${path} still names ${what} ("${found[0]}"): add a rewrite in skill-text-for-mcp.ts.`);
    }
  }
  // JSON strings are YAML double-quoted scalars: the description's colons and quotes cannot break the frontmatter.
  const markdown = `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(mcpDescription)}\n---\n\n${body}\n`;
  return { name, description: mcpDescription, body, markdown, files: { "SKILL.md": markdown, ...files } };
}

/** Each served file named in backticks (`logging.md`) as its resource URI. */
function namesAsUris(text: string, skillName: string, paths: readonly string[]): string {
  let out = text;
  for (const path of paths) {
    if (path === "SKILL.md") continue;
    out = out.replaceAll(`\`${path}\``, `\`${skillFileUri(skillName, path)}\``);
  }
  return out;
}

function applyRewrites(text: string, rewrites: readonly Rewrite[]): string {
  let out = text;
  for (const rewrite of rewrites) {
    const found = out.match(rewrite.find)?.length ?? 0;
    if (found !== rewrite.times) {
      throw new Error(
        `The skill's MCP rewrite "${rewrite.why}" expects its passage ${rewrite.times} time(s) in ${rewrite.file} and found it ${found} time(s): ` +
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
    if (!known.has(tool))
      throw new Error(`The skill names ${whole}, which is not one of the MCP server's tools (${toolNames.join(", ")}).`);
    return tool;
  });
}
