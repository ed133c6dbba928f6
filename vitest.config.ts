/**
 * The test runner's settings for `npm test` (the token-durability suite has its own: vitest.durability.config.ts).
 */
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Minutes of real processes being killed: `npm run test:durability` (vitest.durability.config.ts).
    exclude: ["test/durability/**", "**/node_modules/**"],
    // Suites start real local servers (sandbox, moto_server, Prism, child MCP servers): give them room,
    // and keep files in separate processes so their servers and environment variables never mix.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // As many files at a time as there are cores: most files spend their time waiting on the servers and
    // processes they start (a browser, a sandbox, child MCP servers, timers), not on a core. Vitest's default,
    // one fewer than the cores, ran the files one by one on two cores. One more than the cores was faster still,
    // but left timing-sensitive files too little room on a busy machine.
    maxWorkers: availableParallelism(),
    setupFiles: ["test/support/isolated-token-rescue.ts"],
    // Once per run: which contract tests were skipped for want of Strava's or intervals.icu's API description, and how to get it.
    // Before any file: the server's and the views' builds brought up to date (the sources read the views' build).
    globalSetup: ["test/support/current-builds.ts", "test/support/api-descriptions-notice.ts"],
    reporters: ["default"],
  },
});
