/**
 * Makes an upstream JSON body compact without parsing it into JavaScript values, and proves it whole.
 *
 * Why not `JSON.stringify(JSON.parse(body))`: segment-effort ids in activity detail exceed 2^53, and a
 * round trip through JavaScript numbers silently changes their digits. Removing whitespace outside
 * strings keeps every byte of every number and string exactly as the upstream sent it.
 *
 * Why not `JSON.parse` to check the body first: on every tool call it costs as much as the rest of the
 * server's own work on a 13 KB activity (BENCHMARKS.md), and what the check is for is narrower: a body
 * cut off in transit, or a page that is not JSON at all (a proxy's HTML error). One pass that skips over
 * strings, matches brackets by kind and allows nothing after the closing bracket catches every cut-off
 * prefix of a JSON object or array exactly (a proper prefix always leaves a string or a bracket open)
 * and every non-JSON page that does not happen to be bracket-balanced JSON-like text. It does not re-check
 * the grammar between the brackets (`{"a" 1}` passes): Strava's own serializer is trusted for that.
 * Bodies that are not an object or array go through `JSON.parse`.
 */

/** The compact form of `text`; throws `SyntaxError` when it is not one complete JSON document. */
export function compactJson(text: string): string {
  const length = text.length;
  let start = 0;
  while (start < length && isWhitespace(text.charCodeAt(start))) start++;
  const first = text.charCodeAt(start);
  if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) return compactScalar(text);

  // Closing brackets still owed, innermost last.
  const owed: number[] = [];
  let pieces: string[] | undefined;
  let pieceStart = start;
  let end = -1;
  for (let index = start; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22 /* " */) {
      if (end >= 0) throw incomplete("text after the document");
      index = closingQuote(text, index);
      if (index < 0) throw incomplete("a string is not closed");
    } else if (code === 0x7b || code === 0x5b) {
      if (end >= 0) throw incomplete("more than one document");
      owed.push(code + 2); // "{" + 2 is "}", "[" + 2 is "]"
    } else if (code === 0x7d || code === 0x5d) {
      if (owed.pop() !== code) throw incomplete("brackets do not match");
      if (owed.length === 0) end = index;
    } else if (isWhitespace(code)) {
      pieces ??= [];
      if (index > pieceStart) pieces.push(text.slice(pieceStart, index));
      pieceStart = index + 1;
    } else if (end >= 0) {
      throw incomplete("text after the document");
    }
  }
  if (end < 0) throw incomplete("a bracket is not closed");
  if (pieces === undefined) return start === 0 ? text : text.slice(start);
  if (pieceStart < length) pieces.push(text.slice(pieceStart));
  return pieces.join("");
}

/** The index of the quote that closes the string opened at `open`, or -1. */
export function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote > 0) {
    // Escaped when an odd number of backslashes precede it.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

/**
 * The index of the bracket that closes the one at `open` in text `compactJson` has accepted (so the
 * brackets are known to match), skipping strings.
 */
export function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      index = closingQuote(text, index);
      if (index < 0) break;
    } else if (code === 0x7b || code === 0x5b) depth++;
    else if ((code === 0x7d || code === 0x5d) && --depth === 0) return index;
  }
  throw incomplete("a bracket is not closed");
}

/** A top-level string, number, boolean or null: rare enough for the full parser. */
function compactScalar(text: string): string {
  JSON.parse(text);
  return text.trim();
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function incomplete(what: string): SyntaxError {
  return new SyntaxError(`Not one complete JSON document: ${what}`);
}
