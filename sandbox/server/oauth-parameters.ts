/**
 * The parameters of Strava's OAuth endpoints and push-subscription calls: Strava takes them as a form, as JSON or in
 * the query string, all at once. A body that cannot be read is a Fault naming the body.
 */
import type { IncomingMessage } from "node:http";
import { readRequestBody } from "../../common/read-request-body.ts";
import { bodyKind, decodeForm } from "../body-decoding.ts";
import { faultReply } from "../fault-bodies.ts";
import type { Reply } from "../reply.ts";
import { maxBodyBytes } from "./write-reply.ts";

export type ParsedParameters = { ok: true; params: Record<string, string> } | { ok: false; reply: Reply };

export async function oauthParameters(req: IncomingMessage, search: string): Promise<ParsedParameters> {
  const params: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) params[k] = v;
  const body = await readRequestBody(req, maxBodyBytes);
  const kind = bodyKind(req.headers["content-type"]);
  try {
    if (kind === "json" && body.length > 0) {
      const parsed: unknown = JSON.parse(body.toString("utf8"));
      if (typeof parsed === "object" && parsed !== null) {
        for (const [k, v] of Object.entries(parsed)) if (typeof v === "string" || typeof v === "number") params[k] = String(v);
      }
    } else if (kind === "form" || kind === "multipart") {
      Object.assign(params, (await decodeForm(kind, req.headers["content-type"] ?? "", body)).fields);
    }
  } catch {
    return { ok: false, reply: faultReply(400, "Bad Request", [{ resource: "Application", field: "body", code: "invalid" }]) };
  }
  return { ok: true, params };
}

/** The endpoint's answer to the request's parameters, or the refusal of a body that cannot be read. */
export async function replyWithParameters(
  req: IncomingMessage,
  search: string,
  endpoint: (params: Record<string, string>) => Reply,
): Promise<Reply> {
  const parsed = await oauthParameters(req, search);
  return parsed.ok ? endpoint(parsed.params) : parsed.reply;
}
