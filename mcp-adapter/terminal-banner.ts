/**
 * What a person who started the server in a terminal reads besides the JSON log lines: where it is, what
 * it serves, and a line to paste into a client. Written only when standard error is a terminal (a log
 * file or a client's pipe gets the JSON lines alone). The token is not shown: the client line reads it
 * from where it is kept when pasted into a shell.
 */
import type { AuthTokenSource } from "./auth-token.ts";
import type { UpstreamKind } from "./upstream-choice.ts";
import { shellQuote } from "../common/shell-quote.ts";

export function httpBanner(options: {
  mcpUrl: string;
  version: string;
  upstream: UpstreamKind;
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
  const upstream =
    options.upstream === "sandbox"
      ? "the SANDBOX (a simulated athlete, not your Strava account; unset STRAVA_API_BASE and set STRAVA_* for real data)"
      : "Strava";
  const tokenFile = options.unusedTokenFile
    ? [
        `  a token file is at ${options.unusedTokenFile}: to serve its athlete, start with FITNESS_TOKEN_FILE=${shellQuote(options.unusedTokenFile)}`,
      ]
    : [];
  return [
    "",
    `  Strava fitness MCP server ${options.version} at ${mcpUrl}`,
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
