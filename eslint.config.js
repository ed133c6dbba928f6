// Lint: the recommended JavaScript and type-aware TypeScript rules, and no `console` in product code
// (logs go through the injected logger to standard error; standard output carries protocol only).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", ".cache/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    rules: {
      "no-console": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Command-line entry points, tests and benchmarks may print to the terminal.
    files: ["**/cli.ts", "**/*-cli.ts", "test/**", "bench/**", "scripts/**"],
    rules: { "no-console": "off" },
  },
);
