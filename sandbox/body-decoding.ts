/**
 * Decoding request bodies the way Strava's endpoints take them: form-encoded (POST /activities, the token
 * endpoint), JSON (PUT /activities/{id}) and multipart/form-data (POST /uploads, and POST /activities).
 * Multipart is decoded by the platform's own parser (undici's Request.formData) rather than a dependency.
 */
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
