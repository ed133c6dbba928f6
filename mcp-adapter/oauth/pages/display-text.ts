/**
 * Text a client chose (its name), made safe to show to an athlete: control, format (bidi overrides and
 * isolates, zero-width characters), line and paragraph separator characters are removed, since they can
 * reorder or hide what is shown around them, such as the verified host beside a name; runs of white space
 * become one space, and the text is cut to a length that fits a heading. The pages also isolate it with
 * `<bdi>` (pages.ts), so even right-to-left letters cannot move the text beside it.
 */
const invisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

export function cleanDisplayText(text: string, maxCharacters: number): string {
  const visible = text.toWellFormed().replace(/\s/gu, " ").replace(invisible, "").replace(/ {2,}/g, " ").trim();
  // By code points, so a character outside the BMP is never cut in half.
  return Array.from(visible).slice(0, maxCharacters).join("").trim();
}
