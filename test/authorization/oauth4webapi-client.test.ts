/**
 * A second, independent OAuth client against OAuth mode: panva's oauth4webapi, which checks every
 * answer against the RFCs itself (issuer of the metadata, RFC 9207 `iss` in the authorization response,
 * token response shape). It discovers the protected resource (RFC 9728) and the authorization server
 * (RFC 8414), registers as a confidential client (client_secret_basic, RFC 7591), runs the code flow with
 * PKCE and the `resource` indicator, calls a tool with the token over plain HTTP, refreshes (rotation),
 * and revokes (RFC 7009). The server runs on plain http on loopback, so each request is allowed to be
 * insecure on the client's side (`allowInsecureRequests`); nothing is relaxed on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as oauth from "oauth4webapi";
import { HeadlessUserAgent } from "../support/oauth-user-agent.ts";
import { rawToolCall, resultText } from "../support/oauth-session.ts";
import { startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";

let server: OAuthServer;
const insecure = { [oauth.allowInsecureRequests]: true };
const redirectUri = "http://127.0.0.1:47614/callback";

beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("oauth4webapi against OAuth mode", () => {
  it("discovers, registers with a secret, signs in with PKCE, calls a tool, refreshes and revokes", async () => {
    const resource = await oauth.processResourceDiscoveryResponse(
      new URL(server.mcpUrl),
      await oauth.resourceDiscoveryRequest(new URL(server.mcpUrl), insecure),
    );
    expect(resource.resource).toBe(server.mcpUrl);
    const issuer = new URL((resource.authorization_servers as string[])[0] as string);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
    expect(as.authorization_response_iss_parameter_supported).toBe(true);

    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: "oauth4webapi coach",
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: "client_secret_basic",
          grant_types: ["authorization_code", "refresh_token"],
        },
        insecure,
      ),
    );
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: "client_secret_basic" };
    const clientAuth = oauth.ClientSecretBasic(registered["client_secret"] as string);

    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint as string);
    for (const [key, value] of Object.entries({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: "code",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      scope: "fitness:read fitness:write",
      resource: server.mcpUrl,
      state,
    }))
      authorizationUrl.searchParams.set(key, value);

    let consent = "";
    const outcome = await new HeadlessUserAgent().authorize(authorizationUrl, { redirectUri, beforeConsent: (html) => (consent = html) });
    expect(consent).toContain("oauth4webapi coach");
    expect(consent).toContain("unverified name");
    const callbackParameters = oauth.validateAuthResponse(as, client, outcome.callback as URL, state);

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, callbackParameters, redirectUri, verifier, {
        additionalParameters: { resource: server.mcpUrl },
        ...insecure,
      }),
    );
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope).toBe("fitness:read fitness:write");
    const call = await rawToolCall(server.mcpUrl, tokens.access_token, "get_athlete_stats");
    expect(call.status).toBe(200);
    expect(resultText(((await call.json()) as { result: unknown }).result)).toContain("recent_run_totals");

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token as string, {
        additionalParameters: { resource: server.mcpUrl },
        ...insecure,
      }),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await rawToolCall(server.mcpUrl, refreshed.access_token, "get_athlete")).status).toBe(200);

    // The wrong secret is refused at the token endpoint (401 invalid_client) and changes nothing.
    const wrong = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic("not-the-secret"),
      refreshed.refresh_token as string,
      insecure,
    );
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe("invalid_client");

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token as string, insecure),
    );
    expect((await rawToolCall(server.mcpUrl, refreshed.access_token, "get_athlete")).status).toBe(401);
  });
});
