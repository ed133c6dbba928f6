/**
 * The benchmark's upstream in a process of its own (`npm run bench:mcp -- --sandbox-process`), so that the
 * direct path and the MCP path both cross a process boundary to reach it; its settings are
 * bench-sandbox-options.ts. Prints one JSON line with its addresses on standard output; the benchmark
 * drives it through its /_sandbox/ controls. SIGTERM stops it.
 */
import { startSandbox } from "../sandbox/server.ts";
import { benchSandboxOptions } from "./bench-sandbox-options.ts";

const sandbox = await startSandbox(benchSandboxOptions);
process.stdout.write(
  `${JSON.stringify({ baseUrl: sandbox.baseUrl, apiBase: sandbox.apiBase, tokenUrl: sandbox.tokenUrl, athleteId: sandbox.athleteId })}\n`,
);
const stop = (): void => {
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
