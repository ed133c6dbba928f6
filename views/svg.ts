/** Building SVG by hand: an element with attributes and children, and text that never overflows its box. */

const svgNamespace = "http://www.w3.org/2000/svg";

export type Attributes = Record<string, string | number | undefined>;

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  children: Array<SVGElement | string> = [],
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(svgNamespace, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) node.setAttribute(name, typeof value === "number" ? String(round(value)) : value);
  }
  for (const child of children) node.append(child);
  return node;
}

/** Coordinates to a tenth of a pixel: enough on any screen, and a third of the text. */
export function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A `<title>` child: what a pointer's hover and a screen reader say. */
export function title(text: string): SVGTitleElement {
  return svg("title", {}, [text]);
}
