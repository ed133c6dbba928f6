/**
 * Who is served, and what each sees: a deployment without MCP_ATHLETES serves its owner (the first
 * athlete to sign in) and refuses anyone else at sign-in with a page that says so (and withdraws the
 * Strava grant it just got); with MCP_ATHLETES both athletes are served, each only their own data; a
 * read-only grant lists no write tools and cannot call them.
 */
import { afterAll, describe, expect, it } from "vitest";
import { RecordingOAuthProvider } from "../support/sdk-oauth-provider.ts";
import { connectWithOAuth, resultText } from "../support/oauth-session.ts";
import { jonas, maya, startOAuthServer, type OAuthServer } from "../support/oauth-server.ts";

const servers: OAuthServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

async function start(env: Record<string, string> = {}): Promise<OAuthServer> {
  const server = await startOAuthServer(env);
  servers.push(server);
  return server;
}

describe("admission", () => {
  it("without MCP_ATHLETES the first athlete to sign in owns the server; another athlete is refused with a clear page", async () => {
    const server = await start();
    const owner = await connectWithOAuth(server.mcpUrl, new RecordingOAuthProvider());
    expect(owner).toBeDefined();
    await owner?.close();

    await server.signIn(jonas);
    const stranger = new RecordingOAuthProvider();
    expect(await connectWithOAuth(server.mcpUrl, stranger)).toBeUndefined();
    const page = stranger.outcome?.page;
    expect(page?.status).toBe(403);
    expect(page?.html).toContain("This server does not serve your Strava account");
    expect(page?.html).toContain("Jonas Berg");
    expect(page?.html).toContain(jonas);
    expect(stranger.tokens()).toBeUndefined();
    await server.child.waitForEvent("sign_in_refused", 5_000, (line) => line["athlete"] === jonas);
    // The Strava grant Jonas gave during that sign-in was withdrawn: the sandbox revoked it.
    const counters = (await (await fetch(`${server.sandboxBaseUrl}/_sandbox/counters`)).json()) as { byRoute: Record<string, number> };
    expect(counters.byRoute["POST /oauth/revoke"]).toBe(1);

    // The owner can still sign in again.
    await server.signIn(maya);
    const again = await connectWithOAuth(server.mcpUrl, new RecordingOAuthProvider());
    expect(again).toBeDefined();
    await again?.close();
  });

  it("with MCP_ATHLETES each athlete is served, and sees only their own data", async () => {
    const server = await start({ MCP_ATHLETES: `${maya},${jonas}` });
    const mayaClient = await connectWithOAuth(server.mcpUrl, new RecordingOAuthProvider());
    await server.signIn(jonas);
    const jonasClient = await connectWithOAuth(server.mcpUrl, new RecordingOAuthProvider());
    if (!mayaClient || !jonasClient) throw new Error("both athletes should be signed in");

    const who = async (client: typeof mayaClient): Promise<number> =>
      JSON.parse(resultText(await client.callTool({ name: "get_athlete", arguments: {} }))).id;
    expect(await who(mayaClient)).toBe(Number(maya));
    expect(await who(jonasClient)).toBe(Number(jonas));

    const ids = async (client: typeof mayaClient, owner: string): Promise<number[]> => {
      const list = JSON.parse(
        resultText(await client.callTool({ name: "get_activities", arguments: { per_page: 200, fields: ["id", "athlete"] } })),
      ) as {
        id: number;
        athlete: { id: number };
      }[];
      expect(new Set(list.map((activity) => activity.athlete.id))).toEqual(new Set([Number(owner)]));
      return list.map((activity) => activity.id);
    };
    const mayaIds = await ids(mayaClient, maya);
    const jonasIds = await ids(jonasClient, jonas);
    expect(mayaIds.length).toBeGreaterThan(10);
    expect(jonasIds.length).toBeGreaterThan(10);
    expect(jonasIds.filter((id) => mayaIds.includes(id))).toEqual([]);

    // Maya's activity through Jonas's session: Strava's 404, nothing of hers.
    const foreign = await jonasClient.callTool({ name: "get_activity_by_id", arguments: { id: mayaIds[0] } });
    expect(foreign.isError).toBe(true);
    expect(resultText(foreign)).toContain("404");
    const stats = await jonasClient.callTool({ name: "get_athlete_stats", arguments: { id: Number(maya) } });
    expect(stats.isError).toBe(true);
    await mayaClient.close();
    await jonasClient.close();
  });
});

describe("a read-only grant", () => {
  it("lists only the read tools and refuses the write tools by name", async () => {
    const server = await start();
    const provider = new RecordingOAuthProvider();
    provider.allowWrite = false;
    const client = await connectWithOAuth(server.mcpUrl, provider);
    if (!client) throw new Error("sign-in failed");
    expect(provider.tokens()?.scope).toBe("fitness:read");
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toHaveLength(8);
    expect(names).not.toContain("update_activity");
    const write = await client.callTool({ name: "update_activity", arguments: { id: 1, name: "x" } });
    expect(write.isError).toBe(true);
    expect(resultText(write)).toMatch(/read-only access/);
    const read = await client.callTool({ name: "get_athlete", arguments: {} });
    expect(read.isError).toBeFalsy();
    await client.close();
  });

  it("a client that declines on the consent page gets access_denied back, with iss", async () => {
    const server = await start();
    const provider = new RecordingOAuthProvider();
    provider.decision = "deny";
    expect(await connectWithOAuth(server.mcpUrl, provider)).toBeUndefined();
    const callback = provider.outcome?.callback;
    expect(callback?.searchParams.get("error")).toBe("access_denied");
    expect(callback?.searchParams.get("iss")).toBe(server.issuer);
  });
});
