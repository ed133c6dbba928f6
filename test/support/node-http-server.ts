/**
 * A node:http server on a loopback port of the test's own process, serving whatever listener a test gives (one
 * step of the HTTP edge, or the whole edge), and a raw request that can do what fetch cannot: send a body slowly,
 * or declare a length it never sends.
 */
import { once } from "node:events";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface NodeHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function serveInProcess(listener: (request: IncomingMessage, response: ServerResponse) => void): Promise<NodeHttpServer> {
  const server: Server = createServer(listener);
  // Expect: 100-continue goes to the listener, as on the MCP server's own socket (http-server.ts).
  server.on("checkContinue", (incoming: IncomingMessage, response: ServerResponse) => server.emit("request", incoming, response));
  await once(server.listen(0, "127.0.0.1"), "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over its own connection; `chunks` are written `gapMs` apart (a body that trickles), and `end` says whether the body is ever finished. */
export function rawRequest(
  port: number,
  options: { method: string; path: string; headers: Record<string, string | number>; chunks?: string[]; gapMs?: number; end?: boolean },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: "127.0.0.1", port, method: options.method, path: options.path, headers: options.headers, agent: false },
      (answer) => {
        let body = "";
        answer.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        answer.on("end", () => {
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body });
          // A body the test never finished is not sent after the answer.
          outgoing.destroy();
        });
        answer.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    const chunks = options.chunks ?? [];
    const gapMs = options.gapMs ?? 0;
    let index = 0;
    const next = (): void => {
      if (outgoing.destroyed) return;
      if (index < chunks.length) {
        outgoing.write(chunks[index++] as string);
        setTimeout(next, gapMs).unref();
      } else if (options.end !== false) outgoing.end();
    };
    next();
  });
}
