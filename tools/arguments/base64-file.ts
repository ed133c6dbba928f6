/**
 * Decodes the base64 `file` argument of create_upload, strictly.
 *
 * `Buffer.from(text, "base64")` silently skips characters outside the alphabet, so a mangled or
 * truncated argument would upload garbage; this checks the text first and names what is wrong.
 */
import { ToolInputError } from "./validate-arguments.ts";

/** Largest decoded file accepted (Strava's documented upload limit is 25 MB). */
export const maxUploadBytes = 25 * 1_048_576;

export function decodeBase64File(text: string): Buffer {
  // Line breaks and spaces are common in pasted or wrapped base64 and carry no data.
  const compact = text.replace(/[\s]+/g, "");
  const invalid = /[^A-Za-z0-9+/\-_=]/.exec(compact);
  if (invalid) {
    throw new ToolInputError(
      `file must be base64-encoded; it contains "${invalid[0]}" at position ${invalid.index}, which is not a base64 character.`,
    );
  }
  const padding = compact.indexOf("=");
  // Padding, when there is any, fills the last group of four exactly.
  if (padding !== -1 && (!/^=+$/.test(compact.slice(padding)) || compact.length - padding > 2 || compact.length % 4 !== 0)) {
    throw new ToolInputError(
      "file must be base64-encoded; '=' padding may only appear (at most twice) at the end, to fill its last group of four characters.",
    );
  }
  const unpaddedLength = padding === -1 ? compact.length : padding;
  if (unpaddedLength % 4 === 1) {
    throw new ToolInputError("file is not complete base64: its length is impossible for base64 (was it cut off?).");
  }
  const bytes = Buffer.from(compact.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length === 0) throw new ToolInputError("file is empty once decoded; give the activity file's content.");
  if (bytes.length > maxUploadBytes) {
    throw new ToolInputError(
      `file is ${(bytes.length / 1_048_576).toFixed(1)} MB once decoded; the limit is ${maxUploadBytes / 1_048_576} MB. Compress it (data_type fit.gz, tcx.gz or gpx.gz).`,
    );
  }
  return bytes;
}
