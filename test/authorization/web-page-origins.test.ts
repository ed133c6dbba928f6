/**
 * A web page the athlete happens to open cannot use the OAuth endpoints of a server on their own machine:
 * on a loopback server, /register, /token, /revoke and the metadata take requests only from pages on this
 * machine (localhost, 127.0.0.1, [::1]). A page of another site, or one hiding its origin (`Origin: null`),
 * gets 403 before anything is read or counted, so it cannot spend the machine's registration quota; its
 * CORS preflight is refused, and no preflight ever grants private-network access. Pages on this machine
 * (the MCP Inspector at localhost) keep CORS. Through the real server, over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualRedirectUri } from "../support/manual-oauth-client.ts";
import { startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";
import { clearOfWindowTurn, hourMs } from "../support/window-turns.ts";

let server: OAuthServer;

beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(async () => {
  await server?.stop();
});

const registration = JSON.stringify({ client_name: "Page", redirect_uris: [manualRedirectUri], token_endpoint_auth_method: "none" });

function register(origin: string | undefined): Promise<Response> {
  return fetch(`${server.issuer}/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(origin ? { origin } : {}) },
    body: registration,
  });
}

function preflight(path: string, origin: string): Promise<Response> {
  return fetch(`${server.issuer}${path}`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
      "access-control-request-private-network": "true",
    },
  });
}

describe("a loopback server's OAuth endpoints and web pages", () => {
  it("a page of another site is refused at /register, /token, /revoke and the metadata, and its preflight never succeeds", async () => {
    for (const path of ["/register", "/token", "/revoke", "/.well-known/oauth-authorization-server"]) {
      for (const origin of ["https://attacker.example", "null"]) {
        const answer = await preflight(path, origin);
        expect(answer.status, `${origin} ${path}`).toBe(403);
        expect(answer.headers.get("access-control-allow-origin")).toBeNull();
        expect(answer.headers.get("access-control-allow-private-network")).toBeNull();
        await answer.arrayBuffer();
      }
    }
    const metadata = await fetch(`${server.issuer}/.well-known/oauth-authorization-server`, {
      headers: { origin: "https://attacker.example" },
    });
    expect(metadata.status).toBe(403);
    expect(await metadata.json()).toEqual({
      error: "access_denied",
      error_description:
        "This server is for this machine only: it takes requests only from pages on this machine (localhost, 127.0.0.1, [::1]), not from a page of another site (Invalid Origin: attacker.example).",
    });
  });

  it(
    "pages of other sites cannot spend the machine's registration quota: the machine's own client still registers 20",
    { timeout: 65_000 },
    async () => {
      // Registrations are counted by the clock's hour (of the server, a child on the same clock): one turning between
      // the 20th and the 21st would let the 21st in.
      await clearOfWindowTurn(hourMs, 30_000);
      for (let n = 0; n < 25; n++) {
        const answer = await register(n % 5 === 0 ? "null" : "https://attacker.example");
        expect(answer.status).toBe(403);
        await answer.arrayBuffer();
      }
      for (let n = 0; n < 20; n++) expect((await register(undefined)).status).toBe(201);
      expect((await register(undefined)).status).toBe(429);
    },
  );

  it("a page on this machine (the Inspector at localhost) keeps CORS, without any private-network grant", async () => {
    const answer = await preflight("/token", "http://localhost:6274");
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-allow-private-network")).toBeNull();
    const metadata = await fetch(`${server.issuer}/.well-known/oauth-authorization-server`, {
      headers: { origin: "http://127.0.0.1:6274" },
    });
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get("access-control-allow-origin")).toBe("*");
  });
});
