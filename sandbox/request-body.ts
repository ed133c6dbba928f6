/**
 * Reading and decoding request bodies the way Strava's endpoints take them: form-encoded
 * (POST /activities, the token endpoint), JSON (PUT /activities/{id}) and multipart/form-data
 * (POST /uploads, and POST /activities). Multipart is decoded by the platform's own parser
 * (undici's Request.formData) rather than a dependency.
 */
import type { IncomingMessage } from "node:http";

/** Strava's upload limit is 25 MB; a little room for the multipart framing. */
export const maxBodyBytes = 26 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new BodyTooLargeError(`request body over ${maxBodyBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export type BodyKind = "form" | "json" | "multipart" | "none" | "other";

export function bodyKind(contentType: string | undefined): BodyKind {
  if (!contentType) return "none";
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (type === "multipart/form-data") return "multipart";
  return "other";
}

export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

export interface DecodedForm {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

/** Decodes a form-encoded or multipart body into string fields and file parts. */
export async function decodeForm(kind: "form" | "multipart", contentType: string, body: Buffer): Promise<DecodedForm> {
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  if (kind === "form") {
    for (const [key, value] of new URLSearchParams(body.toString("utf8"))) fields[key] = value;
    return { fields, files };
  }
  const form = await new Request("http://sandbox.local/", { method: "POST", headers: { "content-type": contentType }, body }).formData();
  for (const [key, value] of form) {
    if (typeof value === "string") fields[key] = value;
    else files[key] = { filename: value.name, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  return { fields, files };
}
