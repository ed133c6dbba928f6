/**
 * The V8 heap settings the MCP server's launcher (start.mjs) gives the HTTP server: a young generation of
 * 8 MiB semi-spaces (Node 24's default lets the young generation grow far larger under load) and slower
 * growth of the old generation: a busy server keeps much less memory for a little more CPU per call
 * (BENCHMARKS.md). The benchmark runs its comparison servers with the same settings.
 */
export const httpHeapFlags = ["--max-semi-space-size=8", "--heap-growing-percent=30"];
