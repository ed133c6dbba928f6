/**
 * What a step of the route table (../route-table.ts) works on and decides: the request's method, path and
 * headers (no body, so a refusal never waits for one), and either a decision or nothing (the next step
 * decides).
 */
import type { AuthInfo } from "@modelcontextprotocol/server";

/** What a step needs of a request: no body, so a refusal never waits for one. */
export interface EdgeRequest {
  method: string;
  path: string;
  header(name: string): string | undefined;
}

export type RouteDecision =
  /** Answer with this JSON (a refusal closes the connection on node:http). */
  | { kind: "answer"; status: number; body: unknown; headers?: Record<string, string>; close: boolean }
  | { kind: "oauth" }
  | { kind: "mcp"; auth: AuthInfo | undefined }
  | { kind: "health" };

/** A step: its decision, or undefined to let the next step decide. */
export type RouteStep = (request: EdgeRequest) => Promise<RouteDecision | undefined> | RouteDecision | undefined;

/** OAuth mode's part of the table: the app's routes and its access-token gate. */
export interface OAuthPaths {
  handles(path: string): boolean;
  /** Whether a page of any site may call this route of the app (else only the accepted Origins). */
  takesAnyOrigin(path: string): boolean;
  gate: { check(authorization: string | null | undefined): Promise<AuthInfo | Response> };
}

/** A refusal before any JSON-RPC message was read: a JSON-RPC error that belongs to no request, closing the connection. */
export function jsonRpcRefusal(status: number, message: string): RouteDecision {
  return { kind: "answer", status, body: { jsonrpc: "2.0", error: { code: -32000, message }, id: null }, close: true };
}
