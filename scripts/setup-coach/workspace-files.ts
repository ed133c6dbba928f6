/**
 * Installs the coach's workspace files and memory templates into an agent workspace.
 * An existing file is never touched: the athlete's edits and memory always win.
 */
import { constants } from "node:fs";
import { access, copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Workspace-relative target and repository source of every file the coach workspace starts with. */
export const coachWorkspaceFiles: ReadonlyArray<{ target: string; source: string }> = [
  { target: "AGENTS.md", source: "agents/coach/workspace/AGENTS.md" },
  { target: "SOUL.md", source: "agents/coach/workspace/SOUL.md" },
  { target: "IDENTITY.md", source: "agents/coach/workspace/IDENTITY.md" },
  { target: "USER.md", source: "agents/coach/workspace/USER.md" },
  { target: "MEMORY.md", source: "memory-templates/MEMORY.md" },
  { target: "memory/YYYY-MM-DD.md", source: "memory-templates/memory/YYYY-MM-DD.md" },
];

export interface WorkspaceInstallReport {
  /** Workspace-relative paths written (or, in a dry run, that would be written). */
  created: string[];
  /** Workspace-relative paths that already existed and were left alone. */
  kept: string[];
}

export async function installWorkspaceFiles(workspaceDir: string, options: { dryRun: boolean }): Promise<WorkspaceInstallReport> {
  const report: WorkspaceInstallReport = { created: [], kept: [] };
  for (const file of coachWorkspaceFiles) {
    const target = path.join(workspaceDir, file.target);
    if (options.dryRun) {
      ((await exists(target)) ? report.kept : report.created).push(file.target);
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    try {
      // COPYFILE_EXCL makes "only if absent" atomic: no window between a check and the copy.
      await copyFile(path.join(repoRoot, file.source), target, constants.COPYFILE_EXCL);
      report.created.push(file.target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      report.kept.push(file.target);
    }
  }
  return report;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
