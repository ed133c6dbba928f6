/**
 * Starts a real `moto_server` (AWS Secrets Manager, SSM and DynamoDB for the real AWS SDK) on a free loopback
 * port, for tests. The SDK is pointed at it through its own AWS_ENDPOINT_URL_* variables; product
 * code never knows.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
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
    throw new Error(
      "moto_server is not on PATH. Install it with `pip install 'moto[server]'` (the CI machine image ships moto 5.x).",
    );
  }
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
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
      const response = await fetch(`${endpoint}/moto-api/`, { signal: AbortSignal.timeout(1000) });
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`moto_server did not answer on ${endpoint} within 30 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
