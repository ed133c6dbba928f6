/**
 * Text a client chose (its name), made safe to show to an athlete: control, format (bidi overrides and
 * isolates, zero-width characters), line and paragraph separator characters are removed, since they can
 * reorder or hide what is shown around them, such as the verified host beside a name; so are the other
 * characters Unicode says to show as nothing (default-ignorable: variation selectors, the combining grapheme
 * joiner, Khmer's inherent vowels...). Blank letters, which Unicode counts as letters or symbols but which
 * show as empty space (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0 and the braille blank U+2800), count
 * as the space they show: a name of nothing else is empty, and the pages then say the app gave no name.
 * Runs of white space become one space, and the text is cut to a length that fits a heading. The pages also
 * isolate it with `<bdi>` (pages.ts), so even right-to-left letters cannot move the text beside it.
 */
const invisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;
const blankLetters = /[\u115F\u1160\u3164\uFFA0\u2800]/gu;

export function cleanDisplayText(text: string, maxCharacters: number): string {
  const visible = text.toWellFormed().replace(blankLetters, " ").replace(/\s/gu, " ").replace(invisible, "").replace(/ {2,}/g, " ").trim();
  // By code points, so a character outside the BMP is never cut in half.
  return Array.from(visible).slice(0, maxCharacters).join("").trim();
}
