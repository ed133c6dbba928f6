/**
 * The floor for any server in the middle: a bare node:http pass-through that answers a tools/call for
 * get_activity_by_id with one upstream GET and wraps the body in a JSON-RPC result. No MCP, no bearer
 * check, no validation, no token refresh (it is given an access token). Whatever the MCP server costs above
 * this is the price of doing the job properly; what this costs is the price of one more process hop.
 *
 * Usage: node --import tsx bench/raw-proxy-server.ts   (env: PORT, UPSTREAM_API_BASE, UPSTREAM_ACCESS_TOKEN)
 */
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

const apiBase = new URL(process.env["UPSTREAM_API_BASE"] ?? "");
const accessToken = process.env["UPSTREAM_ACCESS_TOKEN"] ?? "";
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: number; params: { arguments: { id: number } } };
    const upstream = request(
      {
        host: apiBase.hostname,
        port: apiBase.port,
        path: `${apiBase.pathname}/activities/${message.params.arguments.id}`,
        headers: { authorization: `Bearer ${accessToken}` },
        agent,
      },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => parts.push(chunk));
        answer.on("end", () => {
          const body = JSON.stringify({
            jsonrpc: "2.0",
            id: message.id,
            result: { content: [{ type: "text", text: Buffer.concat(parts).toString("utf8") }] },
          });
          res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
          res.end(body);
        });
      },
    );
    upstream.end();
  });
});
server.listen(Number(process.env["PORT"] ?? 0), "127.0.0.1", () => {
  process.stderr.write(`${JSON.stringify({ event: "listening", port: (server.address() as AddressInfo).port })}\n`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
