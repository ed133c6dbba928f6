/**
 * The contract between the host check runner and a module of checks (test/host/checks/*.ts, run in
 * file-name order). A module's default export is a `HostCheckModule`:
 * - `prepare` (optional) runs with network access, outside the network namespace and meanwhile other
 *   modules' checks already run, for work that needs the internet (an npm install); what it returns
 *   must be JSON and reaches `run` as `prepared` (`run` waits for it).
 * - `run` records each check through `report.check(name, body)` and gets scratch hosts from `withHost`;
 *   it runs without network (loopback only).
 */
import type { CheckReport } from "./check-report.ts";
import type { HostContext } from "./host-context.ts";
import type { InstalledHost } from "./host-install.ts";
import type { HostServices } from "./host-services.ts";

export interface PrepareEnvironment {
  /** The working tree (absolute path, ending with a slash). */
  repoRoot: string;
  host: InstalledHost;
  /** A folder for this module's prepared files; it lives until the checks end. */
  dir: string;
  /** A scratch host as in `run`, without the sandbox and moto (they are not started yet). */
  withHost<T>(body: (context: HostContext) => Promise<T>, options?: { dir?: string }): Promise<T>;
}

/** What `prepare` gave, or why it failed (`run` should then report the dependent checks failed). */
export type Prepared = { ok: true; value: unknown; ms: number } | { ok: false; error: string; ms: number } | undefined;

export interface HostCheckEnvironment {
  repoRoot: string;
  host: InstalledHost;
  services: HostServices;
  report: CheckReport;
  prepared: Prepared;
  /**
   * A fresh scratch host (own HOME, state directory and config), wired to the services; with `dir`,
   * the host in that folder (one a `prepare` set up).
   */
  withHost<T>(body: (context: HostContext) => Promise<T>, options?: { dir?: string }): Promise<T>;
}

export interface HostCheckModule {
  title: string;
  prepare?(environment: PrepareEnvironment): Promise<unknown>;
  run(environment: HostCheckEnvironment): Promise<void>;
}
