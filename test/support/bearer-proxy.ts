/**
 * A pass-through HTTP proxy that adds `Authorization: Bearer <token>` to every request and changes
 * nothing else: Host and Origin reach the server as the client sent them (so a test of DNS rebinding
 * protection through it still tests the server's own checks), bodies stream both ways. For clients that
 * cannot send a header of their own, such as the MCP conformance suite.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RunningBearerProxy {
  /** http://localhost:PORT: the name a localhost-only server accepts. */
  readonly origin: string;
  close(): Promise<void>;
}

export async function startBearerProxy(target: URL, token: string): Promise<RunningBearerProxy> {
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", (error) => {
      if (outgoing.headersSent) outgoing.destroy(error);
      else outgoing.writeHead(502, { "content-type": "text/plain" }).end(`proxy: ${error.message}`);
    });
    outgoing.on("close", () => forwarded.destroy());
    incoming.pipe(forwarded);
  });
  await once(server.listen(0, "127.0.0.1"), "listening");
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
