/**
 * An HTTP proxy on loopback in front of a real server, keeping every request that went through it (method, path
 * with query, and body as text), so a test can say exactly what a client sent: which fields an update carried,
 * or that nothing followed a refused request. It forwards requests and answers unchanged.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";

export interface RecordedRequest {
  method: string;
  /** Path and query, as the client sent them ("/intervals/api/v1/activity/i1"). */
  url: string;
  body: string;
}

export interface RecordingProxy {
  /** This proxy's base, "http://127.0.0.1:PORT". */
  baseUrl: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((incoming, answer) => {
    void (async () => {
      const body = await bodyOf(incoming);
      requests.push({ method: incoming.method ?? "", url: incoming.url ?? "", body: body.toString("utf8") });
      const forwarded = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
        (reply) => {
          answer.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(answer);
        },
      );
      forwarded.on("error", () => answer.destroy());
      forwarded.end(body);
    })();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function bodyOf(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
