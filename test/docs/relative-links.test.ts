/**
 * A newcomer follows links: every relative link in the repository's Markdown (README.md, BENCHMARKS.md,
 * docs/, and the README of any folder) must reach a file
 * (or folder) of the repository, and a link to a heading (`file.md#heading`) must reach a heading that
 * exists, spelled the way GitHub spells its anchors. Links to other sites are not followed (tests never
 * reach the internet).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter(Boolean);
const pages = tracked.filter((path) => path.endsWith(".md"));

/** Markdown without its code (fenced blocks and inline spans), where a bracket is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, "").split("\n")) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading.replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

interface Link {
  page: string;
  target: string;
}

function relativeLinks(page: string): Link[] {
  const text = prose(readFileSync(join(root, page), "utf8"));
  const links: Link[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    links.push({ page, target });
  }
  return links;
}

describe("relative links in the repository's Markdown", () => {
  it("finds the pages", () => {
    expect(pages).toContain("README.md");
    expect(pages.filter((page) => page.startsWith("docs/")).length).toBeGreaterThan(10);
  });

  it("every link reaches a file and, with #, a heading in it", () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const { target } of relativeLinks(page)) {
        const [pathPart = "", anchor] = target.split("#");
        const file = pathPart === "" ? join(root, page) : join(root, dirname(page), decodeURIComponent(pathPart));
        if (
          !relative(root, file)
            .split("/")
            .every((part) => part !== "..")
        ) {
          broken.push(`${page}: ${target} leaves the repository`);
          continue;
        }
        if (!existsSync(file)) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (anchor !== undefined && anchor !== "" && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(anchor)) {
          broken.push(`${page}: ${target} (no heading with that anchor in ${relative(root, file)})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("the anchor rule matches GitHub's for the headings these pages use", () => {
    expect([...anchors("## Agent context: what the tools cost a model's context\n## OAuth mode (MCP_AUTH=oauth)\n## A\n## A")]).toEqual([
      "agent-context-what-the-tools-cost-a-models-context",
      "oauth-mode-mcp_authoauth",
      "a",
      "a-1",
    ]);
  });
});
