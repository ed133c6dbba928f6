/**
 * The yardstick: "a plain express pass-through" (about 1.2 ms added and 55% of the direct rate on
 * this kind of machine). An express app whose POST /mcp parses the JSON-RPC body with express.json(),
 * makes the one upstream GET with Node's built-in fetch and wraps the body in a JSON-RPC result. No MCP
 * SDK, no bearer check, no validation, no token refresh (it is given an access token). Running it in the
 * same benchmark run shows whether this bench measures on the scale.
 *
 * Usage: node --import tsx bench/express-proxy-server.ts   (env: PORT, UPSTREAM_API_BASE, UPSTREAM_ACCESS_TOKEN)
 */
import express from "express";
import type { AddressInfo } from "node:net";

const apiBase = process.env["UPSTREAM_API_BASE"] ?? "";
const accessToken = process.env["UPSTREAM_ACCESS_TOKEN"] ?? "";

const app = express();
app.post("/mcp", express.json({ limit: "40mb" }), async (request, response) => {
  const message = request.body as { id: number; params: { arguments: { id: number } } };
  const upstream = await fetch(`${apiBase}/activities/${message.params.arguments.id}`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const text = await upstream.text();
  response.json({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text }] } });
});

const server = app.listen(Number(process.env["PORT"] ?? 0), "127.0.0.1", () => {
  process.stderr.write(`${JSON.stringify({ event: "listening", port: (server.address() as AddressInfo).port })}\n`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
