/**
 * The steps of `npm run authorize` and `npm run authorize:intervals`, in process: where the credentials go
 * (credentialTarget, shared by both commands, each with its own advice for a missing store), and the callback
 * server of the authorization (what it answers a request that is not Strava's redirect or a redirect it did not
 * send, and a port already in use). The whole authorization against the sandbox is in test/scripts/authorize.test.ts.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { AuthorizeUsageError, credentialTarget } from "../../../scripts/authorize/authorize-options.ts";
import {
  AuthorizationError,
  callbackPath,
  runAuthorizationFlow,
  type AuthorizationFlowOptions,
} from "../../../scripts/authorize/oauth-authorization.ts";

const textOf =
  (given: Record<string, string>) =>
  (name: string): string | undefined =>
    given[name];

describe("where the credentials go (credentialTarget)", () => {
  it("a secret: its name defaults to fitness-credentials, its region to AWS_REGION", () => {
    expect(credentialTarget(textOf({ store: "secrets-manager" }), { AWS_REGION: "eu-west-1" }, "advice")).toEqual({
      kind: "secrets-manager",
      secretName: "fitness-credentials",
      region: "eu-west-1",
    });
  });

  it("a token file: a ~/ left unexpanded is the home folder", () => {
    expect(credentialTarget(textOf({ store: "file", "token-file": "~/tokens.json" }), { HOME: "/home/athlete" }, "advice")).toEqual({
      kind: "token-file",
      path: "/home/athlete/tokens.json",
    });
  });

  it("refuses the other store's options, a malformed region, and a missing or unknown store with the advice given", () => {
    const refusal = (given: Record<string, string>): unknown => {
      try {
        credentialTarget(textOf(given), {}, "use --store file.");
      } catch (error) {
        return error instanceof AuthorizeUsageError ? error.message : error;
      }
      return "accepted";
    };
    expect(refusal({ store: "secrets-manager", "token-file": "t.json" })).toBe("--token-file applies to --store file only.");
    expect(refusal({ store: "file", region: "us-west-2" })).toBe("--secret-name and --region apply to --store secrets-manager only.");
    expect(refusal({ store: "secrets-manager", region: "Oregon" })).toBe('--region must be an AWS region such as us-west-2; got "Oregon".');
    expect(refusal({})).toBe("--store is required: use --store file.");
    expect(refusal({ store: "s3" })).toBe('Unknown --store "s3": use --store file.');
  });
});

describe("the authorization's callback server", () => {
  const flowOptions = (changes: Partial<AuthorizationFlowOptions>): AuthorizationFlowOptions => ({
    clientId: "1",
    clientSecret: "client-secret-not-sent",
    authorizeUrl: "http://127.0.0.1:9/oauth/authorize",
    tokenUrl: "http://127.0.0.1:9/oauth/token",
    port: 0,
    timeoutMs: 2_000,
    onAuthorizeUrl: () => {},
    store: async () => {},
    ...changes,
  });

  it("answers 404 off the callback path, 400 to a redirect with another state, and ends with that failure", async () => {
    let authorizeUrl = "";
    const flow = runAuthorizationFlow(flowOptions({ onAuthorizeUrl: (url) => (authorizeUrl = url) }));
    const settled = flow.catch((error: unknown) => error);
    await expect.poll(() => authorizeUrl).not.toBe("");
    const callback = new URL(new URL(authorizeUrl).searchParams.get("redirect_uri") ?? "");
    expect(callback.pathname).toBe(callbackPath);

    const elsewhere = await fetch(new URL("/favicon.ico", callback));
    expect(elsewhere.status).toBe(404);
    const first = await fetch(new URL(`${callbackPath}?state=not-the-one&code=c`, callback));
    expect(first.status).toBe(400);
    expect(await settled).toBeInstanceOf(AuthorizationError);
  });

  it("names a port in use and says what to do", async () => {
    const taken = createServer();
    await once(taken.listen(0, "127.0.0.1"), "listening");
    const port = (taken.address() as AddressInfo).port;
    try {
      await expect(runAuthorizationFlow(flowOptions({ port }))).rejects.toThrow(
        new AuthorizationError(`Port ${port} on 127.0.0.1 is in use; pass another --port, or leave it out to pick a free one.`),
      );
    } finally {
      taken.close();
    }
  });
});
