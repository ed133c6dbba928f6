/**
 * The athletes' request counts and deauthorization checks on local files (state-directory.ts says where): the
 * day's counts of the admitted athletes (a few records) in `usage.json` and `deauthorization-checks.json`,
 * each changed under a lock of its own; counts of other days are dropped as the file is changed.
 */
import type { StateDirectory } from "./state-directory.ts";
import {
  countInto,
  emptyUsage,
  fairShareWindows,
  type DailyUsage,
  type FairShare,
  type FairShareVerdict,
  type UsageStore,
} from "./usage-store.ts";

type UsageFile = Record<string, DailyUsage & { day: string }>;
type DeauthorizationChecks = Record<string, { day: string; quarters: string[] }>;

export class FileUsageStore implements UsageStore {
  readonly description: string;
  readonly #directory: StateDirectory;

  constructor(directory: StateDirectory) {
    this.#directory = directory;
    this.description = directory.description;
  }

  async countUpstreamRequest(
    athleteId: string,
    read: boolean,
    share: FairShare,
    nowMs: number,
    signal: AbortSignal,
  ): Promise<FairShareVerdict> {
    const { day, quarter } = fairShareWindows(nowMs);
    return this.#directory.updateSmallFile<UsageFile, FairShareVerdict>("usage.json", signal, (counts) => {
      // Counts of other days are dropped: the day of the request counted, so counting and pruning read one clock.
      for (const [athlete, usage] of Object.entries(counts)) if (usage.day !== day) delete counts[athlete];
      const usage = counts[athleteId] ?? { day, ...emptyUsage() };
      const verdict = countInto(usage, quarter, read, share);
      counts[athleteId] = usage;
      return verdict;
    });
  }

  async claimDeauthorizationCheck(athleteId: string, dailyLimit: number, nowMs: number, signal: AbortSignal): Promise<boolean> {
    const { day, quarter } = fairShareWindows(nowMs);
    return this.#directory.updateSmallFile<DeauthorizationChecks, boolean>("deauthorization-checks.json", signal, (checks) => {
      for (const [athlete, entry] of Object.entries(checks)) if (entry.day !== day) delete checks[athlete];
      const entry = checks[athleteId] ?? { day, quarters: [] };
      if (entry.quarters.includes(quarter) || entry.quarters.length >= dailyLimit) return false;
      entry.quarters.push(quarter);
      checks[athleteId] = entry;
      return true;
    });
  }

  async forgetAthlete(athleteId: string, signal: AbortSignal): Promise<void> {
    await this.#directory.updateSmallFile<UsageFile, void>("usage.json", signal, (usage) => {
      delete usage[athleteId];
    });
  }
}
