/**
 * `npm run hosted`: the hosted function (OAuth mode on Lambda) on http://127.0.0.1:8788 through a local
 * stand-in for its function URL, with the settings the template gives it: MCP_AUTH=oauth, PUBLIC_URL,
 * MCP_OAUTH_TABLE, MCP_SIGNING_KEY_SECRET, FITNESS_SECRET_NAME (or STRAVA_CLIENT_ID/SECRET), AWS_REGION
 * and the AWS SDK's own endpoint variables. `--bundle FILE` runs the built bundle instead of the sources.
 * PUBLIC_URL defaults to the local address (PORT=0 picks a free port). Ctrl-C stops it.
 */
import { startLocalFunctionUrl } from "./local-function-url.ts";

const args = process.argv.slice(2);
const bundleIndex = args.indexOf("--bundle");
const bundle = bundleIndex >= 0 ? args[bundleIndex + 1] : undefined;
const port = Number(process.env["PORT"] ?? "8788");
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a whole number from 0 to 65535; got "${process.env["PORT"]}".`);
  process.exit(1);
}
process.env["MCP_AUTH"] ??= "oauth";
const local = await startLocalFunctionUrl({ port, ...(bundle ? { bundle } : {}) });
// The handler reads its settings on the first request: the address is known by then (PORT=0 too).
process.env["PUBLIC_URL"] ??= local.url;
console.error(
  `${JSON.stringify({ level: "info", event: "local_function_url", url: local.url, mcp: `${process.env["PUBLIC_URL"] ?? local.url}/mcp`, handler: bundle ?? "mcp-adapter/hosted/lambda-handler.ts" })}`,
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void local.close().then(() => process.exit(0)));
