/**
 * The MCP server's usage text (`--help`), with the variables it reads listed from the settings inventory.
 * A module of its own, loaded only when the text is asked for: making the list sorts the whole inventory,
 * and that sort's locale-aware comparison builds an ICU collator, which a server that is only starting
 * should not wait for (BENCHMARKS.md, start-up).
 */
import { serverVariablesText } from "../common/settings/settings-reference.ts";

export const usage = `Usage: openclaw-fitness-mcp [--stdio]

The fitness tools, on the athlete's Strava or intervals.icu log, as an MCP server.
  (no argument)  streamable HTTP on http://HOST:PORT/mcp behind a bearer token (default 127.0.0.1:3000)
  --stdio        JSON-RPC on standard input and output, for clients that start the server themselves
  --help         this text;  --version  the version

INTERVALS_API_KEY serves the athlete's intervals.icu log; Strava's credentials, their Strava account (never both).
With none it serves a built-in sandbox (a simulated athlete; SANDBOX_FACE=intervals.icu plays intervals.icu).
MCP_AUTH=oauth: OAuth mode over HTTP, athletes sign in with Strava (for Claude's and ChatGPT's connectors).

Settings are environment variables (docs/operators/settings.md says what each does):
${serverVariablesText()}
`;
