/**
 * Where the server listens decides "beyond loopback", not only what PUBLIC_URL says: a server bound to
 * every interface (HOST=0.0.0.0) is on the network whatever its PUBLIC_URL, so it needs https and a list of
 * the athletes it serves (else the first person on the network to sign in would own it, over plain http),
 * logs that the Host header is not checked, and fetches no client metadata document from loopback (where a
 * document URL would reach this machine's own services). Each case runs the server as `npm start` does and
 * attacks it over real sockets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { baseEnv, scratchDirectory, spawnMcpChild, type McpChild } from "../mcp-adapter/mcp-child.ts";
import { freePort } from "../support/free-port.ts";
import { maya } from "../support/oauth-server.ts";
import { makeTestCertificates, type TestCertificates } from "../support/test-certificates.ts";
import { startClientMetadataHost, type ClientMetadataHost } from "../support/client-metadata-host.ts";

const scratch = scratchDirectory();
afterAll(() => scratch.remove());

/** Starts OAuth mode with `env`; resolves with the child once it listens or has exited (whichever comes first). */
async function start(env: Record<string, string>): Promise<{ child: McpChild; outcome: "listening" | "exited" }> {
  const child = spawnMcpChild({
    env: baseEnv({ MCP_AUTH: "oauth", FITNESS_OAUTH_DIR: join(scratch.path, `oauth-${Math.random().toString(36).slice(2)}`), ...env }),
  });
  const outcome = await Promise.race([
    child.waitForEvent("listening").then(
      () => "listening" as const,
      () => "exited" as const,
    ),
    child.exited.then(() => "exited" as const),
  ]);
  return { child, outcome };
}

function startupFailure(child: McpChild): string {
  const failed = child.stderrLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line["event"] === "startup_failed");
  return String(failed?.["message"]);
}

/** An address of this machine that is not loopback (what another machine on the network would connect to). */
function networkAddress(): string | undefined {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === "IPv4" && !entry.internal) return entry.address;
  }
  return undefined;
}

describe("a server listening on every interface with a loopback PUBLIC_URL", () => {
  it("refuses plain http: others on the network would sign in and get tokens in the clear", async () => {
    const port = await freePort();
    const { child, outcome } = await start({
      HOST: "0.0.0.0",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      MCP_ATHLETES: maya,
    });
    try {
      expect(outcome, child.stderrLines.join("\n")).toBe("exited");
      expect(await child.exited).toBe(1);
      expect(startupFailure(child)).toBe(
        `PUBLIC_URL must use https when the server listens beyond loopback (HOST=0.0.0.0): others on the network would reach its sign-in and tokens in the clear; got "http://127.0.0.1:${port}". ` +
          "Put a TLS proxy in front and set PUBLIC_URL to its https address, or listen on loopback only (HOST=127.0.0.1).",
      );
      // Nothing listens: a machine on the network finds no server to sign in to.
      const address = networkAddress();
      if (address === undefined) console.warn("SKIPPED: no network interface besides loopback to connect from");
      else await expect(fetch(`http://${address}:${port}/register`, { method: "POST" })).rejects.toThrow();
    } finally {
      await child.stop();
    }
  });

  it("refuses to run without MCP_ATHLETES: whoever on the network signed in first would own it", async () => {
    const { child, outcome } = await start({ HOST: "0.0.0.0", PORT: "0", PUBLIC_URL: "https://localhost:8443" });
    try {
      expect(outcome, child.stderrLines.join("\n")).toBe("exited");
      expect(startupFailure(child)).toBe(
        "MCP_ATHLETES is required when the server is reached beyond loopback (it listens on HOST=0.0.0.0): set it to the Strava athlete ids it serves, " +
          "such as MCP_ATHLETES=48201735 (an athlete's id is the number in their Strava profile's address).",
      );
    } finally {
      await child.stop();
    }
  });
});

describe("a server listening on every interface, set up as it must be", () => {
  let certificates: TestCertificates;
  let host: ClientMetadataHost;
  let server: { child: McpChild; port: number };

  beforeAll(async () => {
    certificates = makeTestCertificates();
    host = await startClientMetadataHost(certificates);
    const port = await freePort();
    const started = await start({
      HOST: "0.0.0.0",
      PORT: String(port),
      // Behind a TLS proxy on this machine: the public address is loopback, the listening one is not.
      PUBLIC_URL: `https://localhost:${port}`,
      MCP_ATHLETES: maya,
      NODE_EXTRA_CA_CERTS: certificates.caPath,
    });
    if (started.outcome !== "listening") throw new Error(`the server did not start:\n${started.child.stderrLines.join("\n")}`);
    server = { child: started.child, port };
  });

  afterAll(async () => {
    await server?.child.stop();
    await host?.close();
    certificates?.remove();
  });

  it("says at start that the Host header is not checked", async () => {
    const line = await server.child.waitForEvent("host_check_off", 5_000);
    expect(line).toMatchObject({ level: "warn", host: "0.0.0.0" });
    expect(String(line["message"])).toMatch(/OAuth mode/);
  });

  it("fetches no client metadata document from loopback: anyone who can reach it could make it call this machine's own services", async () => {
    host.publish("/local/client.json", (url) => ({
      client_id: url,
      client_name: "A local service",
      redirect_uris: ["http://127.0.0.1:47613/cb"],
      token_endpoint_auth_method: "none",
    }));
    const authorize = new URL(`http://127.0.0.1:${server.port}/authorize`);
    for (const [key, value] of Object.entries({
      client_id: host.url("/local/client.json"),
      redirect_uri: "http://127.0.0.1:47613/cb",
      response_type: "code",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      resource: `https://localhost:${server.port}/mcp`,
      state: "s1",
    }))
      authorize.searchParams.set(key, value);
    const page = await fetch(authorize);
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/could not be fetched from a public https host/);
    expect(host.requests("/local/client.json")).toBe(0);
  });
});
