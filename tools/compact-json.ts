/**
 * Makes an upstream JSON body compact without parsing it into JavaScript values.
 *
 * Why not `JSON.stringify(JSON.parse(body))`: segment-effort ids in activity detail exceed 2^53, and a
 * round trip through JavaScript numbers silently changes their digits. Removing whitespace outside
 * strings keeps every byte of every number and string exactly as the upstream sent it.
 * Strava already answers compact JSON, so the common case returns the input string untouched.
 */
export function compactJson(text: string): string {
  let out: string[] | undefined;
  let segmentStart = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* backslash */) index++;
      else if (code === 0x22 /* quote */) inString = false;
      continue;
    }
    if (code === 0x22) {
      inString = true;
    } else if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      out ??= [];
      if (index > segmentStart) out.push(text.slice(segmentStart, index));
      segmentStart = index + 1;
    }
  }
  if (out === undefined) return text;
  if (segmentStart < text.length) out.push(text.slice(segmentStart));
  return out.join("");
}

/** True when `text` is one complete JSON document (a truncated body or an HTML page is not). */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
