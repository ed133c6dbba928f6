/**
 * The benchmark's sandbox, wherever it runs (in the load generator, or in bench/sandbox-process.ts):
 * rate limits out of the way, quick uploads, and refresh tokens that do not rotate (several servers run
 * side by side on one grant; rotation is the core tests' business).
 */
import type { SandboxOptions } from "../sandbox/server.ts";

const unlimited: [number, number] = [1_000_000_000, 1_000_000_000];

export const benchSandboxOptions: SandboxOptions = {
  rateLimits: { overall: unlimited, read: unlimited },
  uploadProcessingMs: 50,
  rotateRefreshTokens: false,
};
