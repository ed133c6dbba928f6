/**
 * What a person who ran `npm run hosted` in a terminal reads besides the JSON log lines: where the function
 * answers, whether it signs athletes in at Strava or at the built-in sandbox, and where its state is.
 * Written only when standard error is a terminal, as npm start's banner is (mcp-adapter/terminal-banner.ts).
 */
export function localHostedBanner(options: { mcpUrl: string; upstream: string; state: string; scratch: boolean }): string {
  const upstream =
    options.upstream === "sandbox"
      ? "the built-in SANDBOX (simulated athletes with made-up activities, NOT Strava; set FITNESS_SECRET_NAME, or STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET, for Strava)"
      : "Strava";
  return [
    "",
    `  Hosted function (the local stand-in for its function URL) at ${options.mcpUrl}`,
    `  upstream: ${upstream}`,
    `  state: ${options.state}${options.scratch ? " (removed when it stops)" : ""}`,
    "",
    `  Add it to a client as a remote MCP server with that URL; the client signs in${options.upstream === "sandbox" ? " at the sandbox, which approves at once" : " with Strava"}.`,
    "  Stop with Ctrl-C.",
    "",
    "",
  ].join("\n");
}
