/**
 * `POST /register`, dynamic client registration (authorization/endpoints/registration-endpoint.ts, RFC 7591),
 * in process: bad metadata is refused with invalid_client_metadata or invalid_redirect_uri naming the problem;
 * native apps (an app's own scheme, loopback http) and what real clients register are taken; a confidential
 * client gets a secret shown once and stored only as its SHA-256. What registration may cost an anonymous
 * caller is registration-limits.test.ts.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthInProcess, type InProcessOAuth } from "../../support/oauth-in-process.ts";

let server: InProcessOAuth;

beforeAll(async () => {
  server = await startOAuthInProcess();
});

afterAll(async () => {
  await server?.close();
});

const register = (body: string, type = "application/json"): Promise<Response> =>
  server.fetch(`${server.issuer}/register`, { method: "POST", headers: { "content-type": type }, body });

describe("the registration endpoint", () => {
  it("refuses bad metadata with invalid_client_metadata or invalid_redirect_uri", async () => {
    const cases: [string, string][] = [
      ["{not json", "invalid_client_metadata"],
      [JSON.stringify({ client_name: "x" }), "invalid_redirect_uri"],
      [JSON.stringify({ redirect_uris: ["http://evil.example.com/cb"] }), "invalid_redirect_uri"],
      [JSON.stringify({ redirect_uris: ["javascript:alert(1)"] }), "invalid_redirect_uri"],
      [JSON.stringify({ redirect_uris: ["ms-msdt:/id PCWDiagnostic"] }), "invalid_redirect_uri"],
      [
        JSON.stringify({ redirect_uris: ["https://a.example.com/cb", "itms-services://?action=download-manifest"] }),
        "invalid_redirect_uri",
      ],
      [JSON.stringify({ redirect_uris: ["https://a.example.com/cb#frag"] }), "invalid_redirect_uri"],
      [
        JSON.stringify({ redirect_uris: ["https://a.example.com/cb"], token_endpoint_auth_method: "private_key_jwt" }),
        "invalid_client_metadata",
      ],
      [JSON.stringify({ redirect_uris: ["https://a.example.com/cb"], grant_types: ["client_credentials"] }), "invalid_client_metadata"],
      [JSON.stringify({ redirect_uris: ["https://a.example.com/cb"], client_name: "x".repeat(20_000) }), "invalid_client_metadata"],
    ];
    for (const [body, error] of cases) {
      const response = await register(body);
      expect(response.status, body.slice(0, 80)).toBe(400);
      expect(((await response.json()) as { error: string }).error, body.slice(0, 80)).toBe(error);
    }
    expect((await register("redirect_uris=x", "application/x-www-form-urlencoded")).status).toBe(400);
    const native = await register(
      JSON.stringify({ redirect_uris: ["com.example.coach:/oauth", "http://[::1]:8123/cb"], token_endpoint_auth_method: "none" }),
    );
    expect(native.status).toBe(201);
    // What Cursor registers, in one request: its own scheme, its hosted callback and a loopback one.
    const cursor = await register(
      JSON.stringify({
        client_name: "Cursor",
        redirect_uris: [
          "cursor://anysphere.cursor-mcp/oauth/callback",
          "https://www.cursor.com/agents/mcp/oauth/callback",
          "http://localhost:8787/callback",
        ],
        token_endpoint_auth_method: "none",
      }),
    );
    expect(cursor.status).toBe(201);
    const confidential = (await (await register(JSON.stringify({ redirect_uris: ["https://a.example.com/cb"] }))).json()) as Record<
      string,
      unknown
    >;
    expect(confidential["token_endpoint_auth_method"]).toBe("client_secret_basic");
    expect(typeof confidential["client_secret"]).toBe("string");
  });

  it("names each problem in words: the methods, grants, response types, scopes and names it takes", async () => {
    const problem = async (metadata: Record<string, unknown>): Promise<string> =>
      (
        (await (await register(JSON.stringify({ redirect_uris: ["https://a.example.com/cb"], ...metadata }))).json()) as {
          error_description: string;
        }
      ).error_description;
    expect(await problem({ token_endpoint_auth_method: "private_key_jwt" })).toBe(
      "token_endpoint_auth_method must be one of none, client_secret_basic, client_secret_post; got private_key_jwt.",
    );
    expect(await problem({ grant_types: ["refresh_token"] })).toBe(
      "grant_types must include authorization_code and may add refresh_token; no other grant is offered.",
    );
    expect(await problem({ response_types: ["token"] })).toBe('response_types may only be ["code"].');
    expect(await problem({ scope: "fitness:read admin" })).toBe("Unknown scope admin; this server grants fitness:read and fitness:write.");
    expect(await problem({ client_name: "x".repeat(201) })).toBe("client_name is longer than 200 characters.");
    expect(await problem({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example.com/cb${i}`) })).toBe(
      "redirect_uris must list 1 to 10 URIs.",
    );
    const notJson = (await (await register("{}", "text/plain")).json()) as { error_description: string };
    expect(notJson.error_description).toBe("The registration must be a JSON object (Content-Type: application/json).");
  });

  it("a confidential client's secret is shown once and stored only as its SHA-256; the answer is the registration as stored, with CORS and no caching", async () => {
    const answer = await register(
      JSON.stringify({
        client_name: "Coach app",
        redirect_uris: ["https://a.example.com/cb"],
        scope: "fitness:read",
        client_uri: "https://a.example.com",
      }),
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      client_name: "Coach app",
      client_uri: "https://a.example.com",
      redirect_uris: ["https://a.example.com/cb"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      scope: "fitness:read",
      token_endpoint_auth_method: "client_secret_basic",
      client_secret_expires_at: 0,
    });
    expect(body).not.toHaveProperty("client_secret_sha256");
    expect(body).not.toHaveProperty("expires_at");
    const clientId = body["client_id"] as string;
    expect(clientId).toMatch(/^fc_[A-Za-z0-9_-]{22}$/);
    const stored = readFileSync(join(server.stateDirectory, "clients", `${clientId}.json`), "utf8");
    expect(stored).not.toContain(body["client_secret"] as string);
    expect(stored).toContain(
      createHash("sha256")
        .update(body["client_secret"] as string)
        .digest("hex"),
    );
    expect(server.logs.some((line) => line.includes(body["client_secret"] as string))).toBe(false);
  });

  it("takes POST only, and answers a CORS preflight", async () => {
    expect((await server.fetch(`${server.issuer}/register`)).status).toBe(405);
    const preflight = await server.fetch(`${server.issuer}/register`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
  });
});
