import { defineConfig } from "vitest/config";

// `npm run test:durability`: the token-durability scenarios with real server processes (several on one
// store, 60 SIGKILLs, SIGTERM mid-refresh, a stuck store), minutes long, so not part of `npm test`.
// One file at a time: their timings (a kill 5 ms after a token arrives) should not share two cores
// with each other.
export default defineConfig({
  test: {
    include: ["test/durability/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
    reporters: ["default"],
  },
});
