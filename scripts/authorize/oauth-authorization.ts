/**
 * Strava's one-time authorization code flow, run by an operator on their own machine:
 * a callback server on 127.0.0.1, the authorize URL with a random `state`, then on the callback
 * the `state` check, the granted-scope check (athletes can untick scopes on Strava's page) and the
 * code exchange. The browser gets a page saying how it ended, after the tokens are stored.
 *
 * Nothing secret is printed or put in an error: not the code, not a token, not the client secret.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { secretsMatch } from "../../common/digests.ts";
import { createHttpSender, type SendHttp } from "../../common/upstream/http-exchange.ts";
import {
  exchangeAuthorizationCode,
  type ExchangedGrant,
  grantedScopes,
  requiredScopes,
  stravaAuthorizeUrl,
} from "../../strava/strava-oauth.ts";
import { TokenRefreshError } from "../../strava/strava-errors.ts";
import { NamedError } from "../../common/named-error.ts";
import { defaultStravaTimeoutMs } from "../../common/settings/strava-variables.ts";

export const callbackPath = "/callback";

export interface AuthorizationFlowOptions {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  port: number;
  timeoutMs: number;
  /** Called once the callback server listens, with the URL the athlete must open. */
  onAuthorizeUrl(url: string): void;
  /** Stores the result; the browser's answer waits for it, so the page tells the whole outcome. */
  store(authorization: Authorization): Promise<void>;
  /** The network seam (tests record it); default: common/upstream/http-exchange.ts. */
  http?: SendHttp;
}

export interface Authorization extends ExchangedGrant {
  grantedScopes: string[];
}

export class AuthorizationError extends NamedError {}

export async function runAuthorizationFlow(options: AuthorizationFlowOptions): Promise<Authorization> {
  let settle!: PendingCallback["settle"];
  const outcome = new Promise<Authorization>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const pending: PendingCallback = { state: randomBytes(24).toString("base64url"), redirectUri: "", handled: false, settle, options };
  const server = createServer((request, response) => {
    void answerCallback(pending, request, response);
  });
  const port = await listenOnLoopback(server, options.port);
  pending.redirectUri = `http://127.0.0.1:${port}${callbackPath}`;
  const timer = setTimeout(() => {
    pending.handled = true;
    settle.reject(
      new AuthorizationError(
        `No answer from Strava's authorization page within ${options.timeoutMs / 1000} s. Run the command again and open the URL it prints.`,
      ),
    );
  }, options.timeoutMs);
  try {
    options.onAuthorizeUrl(stravaAuthorizeUrl(options, pending.redirectUri, pending.state));
    return await outcome;
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** One authorization waiting for Strava's redirect: what it was sent with, whether it was answered, how it ends. */
interface PendingCallback {
  state: string;
  redirectUri: string;
  /** True once a redirect (or the timeout) has been taken: a second is refused. */
  handled: boolean;
  settle: { resolve(value: Authorization): void; reject(error: Error): void };
  options: AuthorizationFlowOptions;
}

/** The callback server's answer: the first redirect on the callback path completes the authorization; nothing else does. */
async function answerCallback(pending: PendingCallback, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  if (request.method !== "GET" || url.pathname !== callbackPath) {
    page(response, 404, "Not found", "This server only answers Strava's redirect.");
    return;
  }
  if (pending.handled) {
    page(response, 409, "Already handled", "This authorization has already been handled; see the terminal.");
    return;
  }
  pending.handled = true;
  try {
    const authorization = await completeCallback(url.searchParams, pending.state, pending.redirectUri, pending.options);
    await pending.options.store(authorization);
    page(response, 200, "Authorized", "The Strava tokens are stored. You can close this tab and go back to the terminal.");
    pending.settle.resolve(authorization);
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    page(response, failure instanceof AuthorizationError ? 400 : 500, "Authorization failed", failure.message);
    pending.settle.reject(failure);
  }
}

/** Listens on 127.0.0.1 at `port` (0: a free one) and returns the port; a port in use says to pass another. */
async function listenOnLoopback(server: Server, port: number): Promise<number> {
  await once(server.listen(port, "127.0.0.1"), "listening").catch((error: NodeJS.ErrnoException) => {
    throw new AuthorizationError(
      error.code === "EADDRINUSE"
        ? `Port ${port} on 127.0.0.1 is in use; pass another --port, or leave it out to pick a free one.`
        : `Could not start the callback server on 127.0.0.1:${port}: ${error.message}`,
    );
  });
  return (server.address() as AddressInfo).port;
}

async function completeCallback(
  query: URLSearchParams,
  expectedState: string,
  redirectUri: string,
  options: AuthorizationFlowOptions,
): Promise<Authorization> {
  const state = query.get("state") ?? "";
  if (!secretsMatch(state, expectedState)) {
    throw new AuthorizationError(
      "The callback's state does not match the one this command sent, so it is not the answer to this authorization (an old tab, or a forged request). Nothing was stored; run the command again.",
    );
  }
  const error = query.get("error");
  if (error !== null) {
    throw new AuthorizationError(
      `Strava answered "${error}" instead of a code: the athlete pressed Cancel, or the application's Authorization Callback Domain does not allow 127.0.0.1. Nothing was stored.`,
    );
  }
  const { granted, missing } = grantedScopes(query.get("scope"));
  if (missing.length > 0) {
    throw new AuthorizationError(
      `The athlete did not grant ${missing.join(",")} (granted: ${granted.join(",") || "nothing"}). The tools need all of ${requiredScopes.join(",")}; ` +
        "run the command again and leave every box ticked on Strava's page. Nothing was stored.",
    );
  }
  const code = query.get("code");
  if (!code) throw new AuthorizationError("The callback carries no code. Nothing was stored; run the command again.");
  const exchanged = await exchangeCode(code, redirectUri, options);
  return { ...exchanged, grantedScopes: granted };
}

async function exchangeCode(
  code: string,
  redirectUri: string,
  options: AuthorizationFlowOptions,
): Promise<Omit<Authorization, "grantedScopes">> {
  try {
    const http = options.http ?? createHttpSender();
    return await exchangeAuthorizationCode({
      ...options,
      code,
      redirectUri,
      timeoutMs: defaultStravaTimeoutMs,
      http,
      retryAdvice: "run the command again",
    });
  } catch (error) {
    if (!(error instanceof TokenRefreshError)) throw error;
    throw new AuthorizationError(`${error.message} Nothing was stored.`);
  }
}

function page(response: ServerResponse, status: number, title: string, message: string): void {
  const escape = (value: string): string =>
    value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  response.end(`<!doctype html><title>${escape(title)}</title><h1>${escape(title)}</h1><p>${escape(message)}</p>\n`);
}
