/**
 * Which redirect URIs a client may register or list in its metadata document (authorization/clients/
 * redirect-uris.ts): an allowlist after RFC 8252 §7.1 and §7.3 (https; plain http on a loopback address only;
 * an app's private-use scheme named by a domain it owns, in reverse order), plus Cursor's `cursor:` scheme by
 * name. What Claude, ChatGPT, VS Code, Cursor, Claude Code and the MCP Inspector register passes; a scheme that
 * hands the code to something other than the app that asked (an installer, a diagnostics tool, the browser's
 * own pages, an archive reader) does not.
 */
import { describe, expect, it } from "vitest";
import { checkRedirectUri, redirectUriProblem } from "../../../authorization/clients/redirect-uris.ts";

/** The redirect URIs real MCP clients send in their registrations. */
const realClients: Record<string, string[]> = {
  "Claude (web, desktop and phone connectors)": ["https://claude.ai/api/mcp/auth_callback", "https://claude.com/api/mcp/auth_callback"],
  ChatGPT: ["https://chatgpt.com/connector_platform_oauth_redirect"],
  "VS Code": ["https://insiders.vscode.dev/redirect", "https://vscode.dev/redirect", "http://127.0.0.1/", "http://127.0.0.1:33418/"],
  Cursor: [
    "cursor://anysphere.cursor-mcp/oauth/callback",
    "https://www.cursor.com/agents/mcp/oauth/callback",
    "http://localhost:8787/callback",
  ],
  "Claude Code": ["http://localhost:54212/callback"],
  "MCP Inspector": ["http://localhost:6274/oauth/callback"],
  "a native app (RFC 8252 §7.1)": ["com.example.coach:/oauth2redirect", "io.github.athlete.coach:/callback", "http://[::1]:8123/cb"],
};

describe("redirect URIs", () => {
  it.each(Object.entries(realClients))("%s: every URI it registers is allowed", (_client, uris) => {
    for (const uri of uris) expect(redirectUriProblem(uri), uri).toBeUndefined();
  });

  it.each([
    ["ms-msdt:/id PCWDiagnostic /skip force", "ms-msdt"],
    ["itms-services://?action=download-manifest&url=https://evil.example/app.plist", "itms-services"],
    ["jar:https://evil.example/a.jar!/cb", "jar"],
    ["chrome://settings/passwords", "chrome"],
    ["chrome-extension://abcdefghijklmnop/cb", "chrome-extension"],
    ["javascript:alert(1)", "javascript"],
    ["data:text/html,<script>alert(1)</script>", "data"],
    ["file:///etc/passwd", "file"],
    ["blob:https://coach.example.com/550e8400", "blob"],
    ["about:blank", "about"],
    ["ws://127.0.0.1:47613/cb", "ws"],
    ["ftp://coach.example.com/cb", "ftp"],
    ["vscode://vscode.github-authentication/did-authenticate", "vscode"],
    ["myapp:/callback", "myapp"],
  ])("%s is refused, naming its scheme and what is allowed", (uri, scheme) => {
    expect(redirectUriProblem(uri)).toBe(
      `${uri} uses the ${scheme}: scheme, which is not allowed for a redirect URI. Use https, http on a loopback address ` +
        "(127.0.0.1, [::1] or localhost), or your app's own scheme named after a domain you own in reverse order, such as " +
        "com.example.app:/callback (RFC 8252 §7.1).",
    );
    expect(() => checkRedirectUri(uri)).toThrow(expect.objectContaining({ code: "invalid_redirect_uri" }));
  });

  it("a private-use scheme must read as a reverse domain: labels between periods, none empty", () => {
    for (const uri of ["com.:/cb", "com..example:/cb", "com.example-.app:/cb", "com.-example:/cb"]) {
      expect(redirectUriProblem(uri), uri).toMatch(/is not allowed for a redirect URI/);
    }
    expect(redirectUriProblem(".com.example:/cb")).toBe(".com.example:/cb is not an absolute URI.");
    expect(redirectUriProblem("com.example-app.coach2:/cb")).toBeUndefined();
  });

  it("plain http off loopback and fragments stay refused", () => {
    expect(redirectUriProblem("http://evil.example.com/cb")).toBe(
      "http://evil.example.com/cb uses plain http on a host that is not loopback; use https.",
    );
    expect(redirectUriProblem("https://coach.example.com/cb#fragment")).toMatch(/has a fragment/);
    expect(redirectUriProblem("com.example.coach:/cb#x")).toMatch(/has a fragment/);
  });
});
