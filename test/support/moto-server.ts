/**
 * Starts a real `moto_server` (AWS Secrets Manager, SSM and DynamoDB for the real AWS SDK) on a free loopback
 * port, for tests. The SDK is pointed at it through its own AWS_ENDPOINT_URL_* variables; product
 * code never knows.
 *
 * moto is reached through a loopback proxy that hands it one request at a time. AWS applies a conditional
 * write to an item atomically; moto_server answers on a thread per request and checks a condition and writes
 * without a lock, so two concurrent conditional writes can both succeed there (a CI run saw one OAuth code
 * redeemed twice). One request at a time gives the stores the guarantee the real services give; moto answers
 * in milliseconds, so nothing waits long.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { freePort } from "./free-port.ts";

export interface MotoServer {
  endpoint: string;
  /** The environment variables that point the AWS SDK at this server (merge into process.env). */
  env: Record<string, string>;
  /** Clears every secret, parameter and table. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export function motoServerAvailable(): boolean {
  return spawnSync("moto_server", ["--help"], { stdio: "ignore" }).status === 0;
}

export async function startMotoServer(): Promise<MotoServer> {
  if (!motoServerAvailable()) {
    throw new Error("moto_server is not on PATH. Install it with `pip install 'moto[server]'` (the CI machine image ships moto 5.x).");
  }
  const port = await freePort();
  const motoEndpoint = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn("moto_server", ["-H", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited early (${child.exitCode}): ${stderr}`);
    try {
      const response = await fetch(`${motoEndpoint}/moto-api/`, { signal: AbortSignal.timeout(1000) });
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`moto_server did not answer on ${motoEndpoint} within 30 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const proxy = await startOneAtATimeProxy(port);
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    endpoint,
    env: {
      AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
      AWS_ENDPOINT_URL_SSM: endpoint,
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
      AWS_REGION: "us-west-2",
    },
    reset: async () => {
      await fetch(`${endpoint}/moto-api/reset`, { method: "POST" });
    },
    stop: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Forwards each request to moto once the one before it has been answered in full. */
async function startOneAtATimeProxy(motoPort: number): Promise<Server> {
  let queue: Promise<unknown> = Promise.resolve();
  const forward = (method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) =>
    new Promise<Answer>((resolve, reject) => {
      const upstream = request({ host: "127.0.0.1", port: motoPort, method, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      });
      upstream.on("error", reject);
      upstream.end(body);
    });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("error", () => res.destroy());
    req.on("end", () => {
      const turn = queue.then(() => forward(req.method ?? "GET", req.url ?? "/", req.headers, Buffer.concat(chunks)));
      queue = turn.catch(() => undefined);
      turn.then(
        (answer) => {
          res.writeHead(answer.status, answer.headers);
          res.end(answer.body);
        },
        (error: unknown) => {
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(`moto_server did not answer: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}
