/**
 * The benchmark's upstream: the sandbox in a process of its own, so that the direct path and the MCP
 * path both cross a process boundary to reach it, with rate limits out of the way and refresh tokens
 * that do not rotate (several servers run side by side on one grant; rotation is the core tests'
 * business). Prints one JSON line with its addresses on standard output; the benchmark drives it
 * through its /_sandbox/ controls. SIGTERM stops it.
 */
import { startSandbox } from "../sandbox/server.ts";

const unlimited: [number, number] = [1_000_000_000, 1_000_000_000];
const sandbox = await startSandbox({ rateLimits: { overall: unlimited, read: unlimited }, uploadProcessingMs: 50, rotateRefreshTokens: false });
process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl, athleteId: sandbox.athleteId })}\n`);
const stop = (): void => {
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
