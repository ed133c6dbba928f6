/**
 * An HTTPS server on loopback that publishes Client ID Metadata Documents (and, for the refusal tests,
 * documents that are too large, redirect, or name another client; for the slow-host tests, paths that are
 * never answered or answered a byte at a time), with a certificate from the test authority.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TestCertificates } from "./test-certificates.ts";

export interface ClientMetadataHost {
  origin: string;
  /** The URL (a client_id) at which `path` is served. */
  url(path: string): string;
  /** Publishes a JSON document (a function of its own URL) at `path`. */
  publish(path: string, document: (url: string) => unknown): void;
  /** Answers `path` with a redirect, or a body of `size` bytes. */
  redirect(path: string, to: string): void;
  oversize(path: string, size: number): void;
  /** Takes requests for `path` and never answers them (until the host closes). */
  silent(path: string): void;
  /** Answers `path` with its headers at once, then its body one byte every `intervalMs` (for as long as the client stays). */
  trickle(path: string, intervalMs: number): void;
  requests(path: string): number;
  close(): Promise<void>;
}

export async function startClientMetadataHost(certificates: TestCertificates): Promise<ClientMetadataHost> {
  const routes = new Map<string, (url: string) => { status: number; headers: Record<string, string>; body: string }>();
  const slow = new Map<string, "silent" | number>();
  const counts = new Map<string, number>();
  let origin = "";
  const server: Server = createServer({ key: certificates.key, cert: certificates.cert }, (request, response) => {
    const path = (request.url ?? "/").split("?")[0] as string;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const slowness = slow.get(path);
    if (slowness === "silent") return;
    if (typeof slowness === "number") {
      response.writeHead(200, { "content-type": "application/json" });
      const drip = setInterval(() => response.write(" "), slowness);
      response.once("close", () => clearInterval(drip));
      return;
    }
    const route = routes.get(path);
    if (!route) {
      response.writeHead(404).end();
      return;
    }
    const answer = route(`${origin}${path}`);
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    publish: (path, document) =>
      routes.set(path, (url) => ({ status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(document(url)) })),
    redirect: (path, to) => routes.set(path, () => ({ status: 302, headers: { location: to }, body: "" })),
    oversize: (path, size) =>
      routes.set(path, () => ({
        status: 200,
        headers: { "content-type": "application/json" },
        body: `{"client_name":"${"x".repeat(size)}"}`,
      })),
    silent: (path) => slow.set(path, "silent"),
    trickle: (path, intervalMs) => slow.set(path, intervalMs),
    requests: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
