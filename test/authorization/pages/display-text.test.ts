/**
 * A client's name made safe to show (authorization/pages/display-text.ts): characters that reorder or hide
 * text go, and so do blank letters, which Unicode counts as letters or symbols but which show nothing, so a
 * name of them alone is empty (and the pages then say the app gave no name) and one between words is a space.
 */
import { describe, expect, it } from "vitest";
import { cleanDisplayText } from "../../../authorization/pages/display-text.ts";

describe("cleanDisplayText", () => {
  it.each([
    ["Hangul filler", "\u3164"],
    ["Hangul choseong filler", "\u115f"],
    ["Hangul jungseong filler", "\u1160"],
    ["halfwidth Hangul filler", "\uffa0"],
    ["braille pattern blank", "\u2800"],
    ["combining grapheme joiner", "\u034f"],
    ["Khmer inherent vowels", "\u17b4\u17b5"],
    ["Mongolian free variation selector", "\u180b"],
    ["variation selectors", "\ufe0f\u{e0100}"],
    ["a mix, with spaces", " \u3164 \u2800\u00a0\u3000\u115f "],
  ])("a name of nothing but %s is empty", (_label, name) => {
    expect(cleanDisplayText(name, 100)).toBe("");
  });

  it("a blank letter between words reads as the space it shows", () => {
    expect(cleanDisplayText("Coach\u3164Desk\u2800Pro", 100)).toBe("Coach Desk Pro");
    expect(cleanDisplayText("Coach \u3164\u3164 Desk", 100)).toBe("Coach Desk");
  });

  it("keeps letters that show, of any script", () => {
    expect(cleanDisplayText("코치 데스크 Тренер 教练 ⠁⠃", 100)).toBe("코치 데스크 Тренер 教练 ⠁⠃");
  });
});
