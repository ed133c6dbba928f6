/**
 * DNS rebinding protection: the SDK's `hostHeaderValidation` decides, this remembers its yes.
 *
 * The SDK parses the Host header with `new URL()` on every request, which is a noticeable share of a
 * call's CPU on this server's hot path. A client sends the same Host on every request, so the first
 * accepted value is remembered and later requests with it skip the parse. Only accepted values are
 * remembered (an attacker's junk is rejected every time and never fills the memory), and at most a
 * handful of them.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { hostHeaderValidation } from "@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js";

const rememberedLimit = 16;

export interface HostCheck {
  /** Express middleware: next() for an allowed Host, 403 with a JSON-RPC error body otherwise. */
  readonly middleware: RequestHandler;
  /** True when this exact Host header value was accepted before (no parsing). */
  isKnownGood(host: string | undefined): boolean;
}

export function createHostCheck(allowedHostnames: string[]): HostCheck {
  const validate = hostHeaderValidation(allowedHostnames);
  const accepted = new Set<string>();
  const middleware = (request: Request, response: Response, next: NextFunction): void => {
    const host = request.headers.host;
    if (host !== undefined && accepted.has(host)) {
      next();
      return;
    }
    void validate(request, response, () => {
      if (host !== undefined && accepted.size < rememberedLimit) accepted.add(host);
      next();
    });
  };
  return { middleware, isKnownGood: (host) => host !== undefined && accepted.has(host) };
}
