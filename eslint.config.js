// Lint: the recommended JavaScript and type-aware TypeScript rules, no `console` in product code (logs go
// through the injected logger to standard error; standard output carries protocol only), imports that point
// one way between the rooms (docs/architecture.md), static and dynamic alike, and no environment read in the core.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The rooms, from the bottom up: a room may import the rooms below it, never those above or beside it. The two
 * training logs, `strava` and `intervals`, sit side by side on `common`: neither imports the other. OAuth
 * mode's authorization server sits on the core and below the front ends; the MCP Apps views (browser code)
 * take only types and pure formulas from `tools`. The build code (`build`) sits above them all: it may import any
 * room's sources to bundle them, and no room imports it (the server reads what was built, never the builder; the
 * launcher, which rebuilds the server in a checkout when a source changed, runs the build as a process of its own).
 */
const core = ["common", "strava", "intervals", "credentials", "tools"];
const frontEnds = ["plugin", "mcp-adapter", "scripts"];
const apart = ["voice", "sandbox"];
const everyRoom = [...core, "authorization", ...frontEnds, ...apart, "views", "agents", "skills", "build"];

/**
 * A rule that forbids importing the other rooms from a file of `room` but `allowed` (any depth:
 * `../../credentials/x.ts`): `import ... from`, `export ... from` (no-restricted-imports), and `import("...")`
 * and the type `import("...").T`, which no-restricted-imports does not see (no-restricted-syntax, with the
 * same message). A specifier computed at run time cannot be checked here.
 */
function importsOnly(room, allowed) {
  const forbidden = everyRoom.filter((other) => other !== room && !allowed.includes(other));
  const message = `${room}/ may import only ${allowed.length > 0 ? allowed.join(", ") : "nothing of the other rooms"} (imports point one way: docs/architecture.md).`;
  // esquery's regular expressions cannot hold a "/": \x2F stands for it.
  const specifier = `/^(\\.\\.\\x2F)+(${forbidden.join("|")})\\x2F/`;
  return {
    files: [`${room}/**/*.ts`, `${room}/**/*.mjs`],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: `ImportExpression[source.value=${specifier}]`, message },
        { selector: `TSImportType Literal[value=${specifier}]`, message },
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${forbidden.join("|")})/`,
              message,
            },
          ],
          paths: [
            { name: "node:process", importNames: ["env"], message: "Only front ends read the environment, through common/settings." },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", ".cache/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain JavaScript run by Node (the launcher, the build code, the build check): Node's globals. The launcher
    // uses the global `process` rather than importing node:process, which costs every start (mcp-adapter/start.mjs).
    files: ["**/*.mjs"],
    languageOptions: { globals: { process: "readonly", performance: "readonly" } },
  },
  {
    files: ["**/*.ts"],
    rules: {
      "no-console": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  importsOnly("common", []),
  importsOnly("strava", ["common"]),
  importsOnly("intervals", ["common"]),
  importsOnly("credentials", ["common", "strava", "intervals"]),
  importsOnly("tools", ["common", "strava", "intervals", "credentials"]),
  importsOnly("authorization", core),
  importsOnly("plugin", [...core, "authorization", "sandbox"]),
  importsOnly("mcp-adapter", [...core, "authorization", "sandbox"]),
  importsOnly("scripts", [...core, "authorization", "sandbox", "plugin"]),
  importsOnly("voice", ["common"]),
  importsOnly("sandbox", ["common"]),
  importsOnly("views", ["tools"]),
  importsOnly(
    "build",
    everyRoom.filter((room) => room !== "build"),
  ),
  {
    // The core and the authorization server receive their settings: only front ends and command-line entry points
    // read the environment (common/settings/).
    files: [...core, "authorization"].flatMap((room) => [`${room}/**/*.ts`, `${room}/**/*.mjs`]),
    ignores: ["common/settings/**", "authorization/**/*-cli.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Only front ends read the environment: take the setting as an argument (common/settings/).",
        },
      ],
    },
  },
  {
    // Command-line entry points, tests and benchmarks may print to the terminal.
    files: ["**/cli.ts", "**/*-cli.ts", "test/**", "bench/**", "scripts/**"],
    rules: { "no-console": "off" },
  },
);
