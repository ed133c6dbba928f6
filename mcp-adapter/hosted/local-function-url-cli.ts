/**
 * `npm run hosted`: the hosted function (OAuth mode on Lambda) on http://127.0.0.1:8788 through a local
 * stand-in for its function URL, with the settings the template gives it: MCP_AUTH=oauth, PUBLIC_URL,
 * MCP_OAUTH_TABLE, MCP_SIGNING_KEY_SECRET, FITNESS_SECRET_NAME (or STRAVA_CLIENT_ID/SECRET), AWS_REGION
 * and the AWS SDK's own endpoint variables. `--bundle FILE` runs the built bundle instead of the sources.
 * PUBLIC_URL defaults to the local address (PORT=0 picks a free port). Ctrl-C stops it.
 */
import { messageOf } from "../../common/named-error.ts";
import { port as portSetting } from "../../common/settings/server-variables.ts";
import { readSetting } from "../../common/settings/setting.ts";
import { publicUrl } from "../../common/settings/oauth-variables.ts";
import { startLocalFunctionUrl } from "./local-function-url.ts";

const args = process.argv.slice(2);
const bundleIndex = args.indexOf("--bundle");
const bundle = bundleIndex >= 0 ? args[bundleIndex + 1] : undefined;
let port: number;
try {
  port = readSetting(process.env, portSetting) ?? 8788;
} catch (error) {
  console.error(messageOf(error));
  process.exit(1);
}
process.env["MCP_AUTH"] ??= "oauth";
const local = await startLocalFunctionUrl({ port, ...(bundle ? { bundle } : {}) });
// The handler reads its settings on the first request: the address is known by then (PORT=0 too).
process.env["PUBLIC_URL"] ??= local.url;
console.error(
  `${JSON.stringify({ level: "info", event: "local_function_url", url: local.url, mcp: `${readSetting(process.env, publicUrl) ?? local.url}/mcp`, handler: bundle ?? "mcp-adapter/hosted/lambda-handler.ts" })}`,
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void local.close().then(() => process.exit(0)));
