/**
 * The load generator: raw HTTP/1.1 requests over a keep-alive `node:http` Agent, one connection per
 * concurrent caller, with nothing parsed that the measurement does not need. (The SDK's client would
 * add its own validation and bookkeeping to every call and hide the server's cost.)
 */
import { Agent, request as httpRequest } from "node:http";

export interface LeanResponse {
  status: number;
  body: string;
}

export interface LeanRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export class LeanHttpClient {
  readonly #host: string;
  readonly #port: number;
  readonly #agent: Agent;
  readonly #localAddress: string | undefined;

  /** `localAddress`: the address its connections come from (another loopback address is another source). */
  constructor(baseUrl: string, maxSockets: number, localAddress?: string) {
    const url = new URL(baseUrl);
    this.#host = url.hostname;
    this.#port = Number(url.port);
    this.#agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
    this.#localAddress = localAddress;
  }

  send(spec: LeanRequest): Promise<LeanResponse> {
    return new Promise((resolve, reject) => {
      const headers = spec.body === undefined ? spec.headers : { ...spec.headers, "content-length": String(Buffer.byteLength(spec.body)) };
      const req = httpRequest(
        {
          host: this.#host,
          port: this.#port,
          method: spec.method,
          path: spec.path,
          headers,
          agent: this.#agent,
          ...(this.#localAddress === undefined ? {} : { localAddress: this.#localAddress }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(spec.body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/**
 * `calls` requests sent at once to a server on 127.0.0.1, each over a connection of its own, from as many
 * loopback addresses as the MCP server's cap of connections per source address (256,
 * mcp-adapter/http/http-server.ts) needs: from one address the connections past the cap are closed. They start
 * at 127.0.0.2, so the connections a bench keeps open from 127.0.0.1 do not count against them.
 */
export async function sendAtOnceFromLoopback(
  baseUrl: string,
  calls: number,
  request: () => LeanRequest,
  perAddress = 250,
): Promise<LeanResponse[]> {
  const clients = Array.from(
    { length: Math.ceil(calls / perAddress) },
    (_, index) => new LeanHttpClient(baseUrl, perAddress, `127.0.0.${index + 2}`),
  );
  try {
    return await Promise.all(Array.from({ length: calls }, (_, index) => clients[Math.floor(index / perAddress)]!.send(request())));
  } finally {
    for (const client of clients) client.close();
  }
}

export interface LoadResult {
  concurrency: number;
  calls: number;
  seconds: number;
  callsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

/**
 * Runs `calls` requests with `concurrency` callers each looping request after request (closed loop),
 * and reports latency percentiles (ms) and throughput. `check` says whether a response is a success.
 */
export async function runClosedLoop(options: {
  client: LeanHttpClient;
  concurrency: number;
  calls: number;
  request: () => LeanRequest;
  check: (response: LeanResponse) => boolean;
}): Promise<LoadResult> {
  const latencies = new Float64Array(options.calls);
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const caller = async (): Promise<void> => {
    while (next < options.calls) {
      const index = next++;
      const spec = options.request();
      const t0 = performance.now();
      let ok = false;
      try {
        const response = await options.client.send(spec);
        ok = options.check(response);
        if (!ok) firstError ??= `${response.status} ${response.body.slice(0, 300)}`;
      } catch (error) {
        firstError ??= String(error);
      }
      latencies[index] = performance.now() - t0;
      if (!ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, caller));
  const seconds = (performance.now() - started) / 1000;
  if (firstError !== undefined) console.error(`  ${errors} failed calls; first: ${firstError}`);
  latencies.sort();
  return {
    concurrency: options.concurrency,
    calls: options.calls,
    seconds,
    callsPerSecond: options.calls / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    errors,
  };
}

function percentile(sorted: Float64Array, q: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}
