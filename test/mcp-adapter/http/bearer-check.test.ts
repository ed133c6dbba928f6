/**
 * The bearer check (mcp-adapter/http/bearer-check.ts): the verdict for each Authorization header, and the 401's
 * challenge (RFC 6750: an error code only when a bearer token was sent) and body, which say what to send.
 */
import { describe, expect, it } from "vitest";
import { bearerChallenge, createBearerVerifier } from "../../../mcp-adapter/http/bearer-check.ts";

const token = "a-bearer-token-of-32-characters!";

describe("the bearer verdict", () => {
  it("accepts exactly the token, under any case of the scheme and with spaces around it", () => {
    const verify = createBearerVerifier(token);
    expect(verify(`Bearer ${token}`)).toBe("accepted");
    expect(verify(`bearer ${token}`)).toBe("accepted");
    expect(verify(`BEARER   ${token}  `)).toBe("accepted");
  });

  it("names what is wrong: no header, another scheme, a wrong or empty token", () => {
    const verify = createBearerVerifier(token);
    expect(verify(undefined)).toBe("missing");
    expect(verify("   ")).toBe("missing");
    expect(verify(`Basic ${token}`)).toBe("not_bearer");
    expect(verify(token)).toBe("not_bearer");
    expect(verify(`Bearer ${token}x`)).toBe("invalid_token");
    expect(verify(`Bearer ${token.slice(1)}`)).toBe("invalid_token");
    expect(verify("Bearer")).toBe("invalid_token");
  });

  it("refuses to be made with an empty token", () => {
    expect(() => createBearerVerifier("")).toThrow("The bearer token must not be empty.");
  });
});

describe("the 401", () => {
  it('carries error="invalid_token" only when a bearer token was sent', () => {
    expect(bearerChallenge("invalid_token").challenge).toBe(
      'Bearer realm="openclaw-fitness", error="invalid_token", error_description="The bearer token is not valid for this server"',
    );
    expect(bearerChallenge("missing").challenge).toBe('Bearer realm="openclaw-fitness"');
    expect(bearerChallenge("not_bearer").challenge).toBe('Bearer realm="openclaw-fitness"');
  });

  it("says in its body what to send", () => {
    expect(bearerChallenge("missing").body.error_description).toBe(
      "This server needs an Authorization header: Authorization: Bearer <AUTH_TOKEN>.",
    );
    expect(bearerChallenge("not_bearer").body).toEqual({
      error: "unauthorized",
      error_description: "Only the Bearer scheme is accepted: Authorization: Bearer <AUTH_TOKEN>.",
    });
    expect(bearerChallenge("invalid_token").body.error).toBe("invalid_token");
  });
});
