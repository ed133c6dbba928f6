/**
 * What a person who started the server in a terminal reads besides the JSON log lines: where it is, what
 * it serves, and a line to paste into a client. Written only when standard error is a terminal (a log
 * file or a client's pipe gets the JSON lines alone). The token is not shown: the client line reads it
 * from where it is kept when pasted into a shell.
 */
import type { AuthTokenSource } from "./auth-token.ts";
import type { UpstreamKind } from "./upstream-choice.ts";
import { shellQuote } from "../common/shell-quote.ts";
import { trainingLogName, type TrainingLog } from "../common/upstream/training-log-client.ts";

export function httpBanner(options: {
  mcpUrl: string;
  version: string;
  upstream: UpstreamKind;
  /** The training log served (Strava when not given). */
  log?: TrainingLog | undefined;
  token: AuthTokenSource;
  unusedTokenFile?: string | undefined;
}): string {
  const { mcpUrl } = options;
  const healthUrl = mcpUrl.replace(/\/mcp$/, "/health");
  const bearer = options.token.kind === "file" ? `$(cat ${shellQuote(options.token.path)})` : "$AUTH_TOKEN";
  const tokenLine =
    options.token.kind === "file"
      ? `bearer token: kept in ${options.token.path} (the same across restarts; set AUTH_TOKEN to choose your own)`
      : "bearer token: AUTH_TOKEN";
  const log = options.log ?? "strava";
  const upstream =
    options.upstream !== "sandbox"
      ? trainingLogName(log)
      : log === "strava"
        ? "the SANDBOX (a simulated athlete, not your Strava account; set STRAVA_* for real data, and unset STRAVA_API_BASE if it points here)"
        : "the built-in SANDBOX as intervals.icu (a simulated athlete, not your intervals.icu account; set INTERVALS_API_KEY for real data)";
  const tokenFile = options.unusedTokenFile
    ? [
        `  a token file is at ${options.unusedTokenFile}: to serve its athlete, start with FITNESS_TOKEN_FILE=${shellQuote(options.unusedTokenFile)}`,
      ]
    : [];
  return [
    "",
    `  ${trainingLogName(log)} fitness MCP server ${options.version} at ${mcpUrl}`,
    `  upstream: ${upstream}`,
    ...tokenFile,
    `  ${tokenLine}`,
    "",
    "  Add it to Claude Code:",
    `    claude mcp add --transport http strava-fitness ${mcpUrl} --header "Authorization: Bearer ${bearer}"`,
    "  Check it:",
    `    curl -s ${healthUrl} -H "Authorization: Bearer ${bearer}"`,
    "  Other clients (Claude Desktop, Cursor, the Inspector): docs/operators/connecting-clients.md. Stop with Ctrl-C.",
    "",
    "",
  ].join("\n");
}

export const stdioBanner =
  "\n  This is the stdio transport: it reads JSON-RPC messages on standard input, as an MCP client that\n" +
  "  starts the server sends them. To serve clients that connect over HTTP, start it without --stdio.\n\n";
