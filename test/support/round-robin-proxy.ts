/**
 * A load balancer in front of several server instances: an HTTP proxy on loopback that sends each
 * request to the next instance in turn, keeping the Host header (the instances all have the proxy's
 * address as their PUBLIC_URL, as instances behind a real balancer share one).
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  origin: string;
  setTargets(ports: number[]): void;
  /** Requests sent to each target port. */
  counts(): Map<number, number>;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let targets: number[] = [];
  let next = 0;
  const counts = new Map<number, number>();
  const server: Server = createServer((incoming, outgoing) => {
    const port = targets[next++ % targets.length];
    if (port === undefined) {
      outgoing.writeHead(502).end();
      return;
    }
    counts.set(port, (counts.get(port) ?? 0) + 1);
    const forward = httpRequest(
      { host: "127.0.0.1", port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on("error", () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setTargets: (ports) => {
      targets = ports;
    },
    counts: () => counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
