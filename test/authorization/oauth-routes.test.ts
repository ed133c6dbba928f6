/**
 * The authorization server's routes (authorization/oauth-routes.ts), through the OAuth app as OAuth mode puts it
 * together, in process: each endpoint takes its methods (405 naming them otherwise), the endpoints pages call
 * with fetch answer CORS preflights, a discovery path without a document is a 404 pointing at the documents,
 * and an endpoint whose store fails answers 503 (a page on the sign-in's own paths, JSON elsewhere) with the
 * detail in the log only.
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualOAuthClient } from "../support/manual-oauth-client.ts";
import { startOAuthInProcess, type InProcessOAuth } from "../support/oauth-in-process.ts";

let server: InProcessOAuth;

beforeAll(async () => {
  server = await startOAuthInProcess();
});

afterAll(async () => {
  await server?.close();
});

const route = (path: string, init: RequestInit = {}): Promise<Response> => server.app.route(new Request(`${server.issuer}${path}`, init));

describe("the routes", () => {
  it("each endpoint takes its methods, and names them otherwise", async () => {
    for (const [path, method, allow] of [
      ["/authorize", "PUT", "GET, POST"],
      ["/oauth/strava/callback", "POST", "GET"],
      ["/token", "GET", "POST"],
      ["/register", "DELETE", "POST"],
      ["/revoke", "GET", "POST"],
    ] as const) {
      const answer = await route(path, { method });
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.get("allow")).toBe(allow);
      expect(await answer.json()).toEqual({ error: "method_not_allowed", error_description: `Use ${allow}.` });
    }
  });

  it("answers CORS preflights on the endpoints pages call with fetch, not on the sign-in's pages", async () => {
    for (const path of ["/token", "/register", "/revoke"]) {
      const answer = await route(path, { method: "OPTIONS" });
      expect(answer.status, path).toBe(204);
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    }
    expect((await route("/authorize", { method: "OPTIONS" })).status).toBe(405);
  });

  it("a discovery path without a document is a 404 pointing at the two documents, CORS open; any other path a plain 404", async () => {
    const answer = await route("/.well-known/openid-configuration");
    expect(answer.status).toBe(404);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(await answer.json()).toEqual({
      error: "not_found",
      error_description:
        "No discovery document at /.well-known/openid-configuration: see /.well-known/oauth-authorization-server (RFC 8414) and /.well-known/oauth-protected-resource.",
    });
    expect(await (await route("/nowhere")).json()).toEqual({ error: "not_found" });
    expect(server.app.handles("/nowhere")).toBe(false);
    expect(server.app.handles("/.well-known/anything")).toBe(true);
  });

  it("an endpoint whose store fails answers 503: JSON with no-store at /register, a page at /authorize; the detail only in the log", async () => {
    const client = new ManualOAuthClient(server.issuer, { fetch: server.fetch });
    await client.register();
    // The registrations' folder replaced by a file: every read and write of a registration fails.
    const clients = join(server.stateDirectory, "clients");
    renameSync(clients, `${clients}.aside`);
    writeFileSync(clients, "");
    try {
      const register = await route("/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:47615/cb"], token_endpoint_auth_method: "none" }),
      });
      expect(register.status).toBe(503);
      expect(register.headers.get("cache-control")).toBe("no-store");
      expect(await register.json()).toEqual({
        error: "temporarily_unavailable",
        error_description: "The server could not finish this step (its store did not answer, or something failed); try again in a moment.",
      });
      const link = client.authorizeUrl({ code_challenge: client.pkce().challenge });
      const page = await route(`${link.pathname}${link.search}`);
      expect(page.status).toBe(503);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toContain("Something went wrong on this server");
      expect(server.events("oauth_internal_error").map((line) => line["path"])).toEqual(["/register", "/authorize"]);
    } finally {
      rmSync(clients);
      renameSync(`${clients}.aside`, clients);
    }
  });
});
