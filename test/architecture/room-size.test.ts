/**
 * No room holds more than a fifth of the product's lines. A room that grows past that is doing more than one
 * job (the MCP server's room once held over a third, half of it an authorization server), and is split by what
 * its parts are for (the sandbox, say, into the athlete and each API's face) rather than let grow.
 *
 * A room is a top-level folder; the files at the root (the plugin's entry, the tools' configuration) are counted
 * in the whole but are no room. Lines are every line of a file, as `wc -l` counts them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { productFiles, repositoryRoot } from "./product-files.ts";

const largestShare = 1 / 5;

const linesOf = (file: string): number => readFileSync(join(repositoryRoot, file), "utf8").split("\n").length - 1;

describe("the rooms' sizes", () => {
  it(`keeps every room within ${largestShare * 100}% of the product's lines`, () => {
    const byRoom = new Map<string, number>();
    let total = 0;
    for (const file of productFiles) {
      const lines = linesOf(file);
      total += lines;
      if (!file.includes("/")) continue;
      const room = file.slice(0, file.indexOf("/"));
      byRoom.set(room, (byRoom.get(room) ?? 0) + lines);
    }
    expect(total).toBeGreaterThan(10_000);
    expect(byRoom.size).toBeGreaterThan(8);
    const tooLarge = [...byRoom]
      .filter(([, lines]) => lines > total * largestShare)
      .map(
        ([room, lines]) =>
          `${room}/ holds ${lines} of ${total} lines (${((100 * lines) / total).toFixed(1)}%): split it by what its parts are for`,
      );
    expect(tooLarge).toEqual([]);
  });
});
