/**
 * A colour per sport, told apart at a glance: the sports a view shows, most training first, take the ten hues of
 * Tableau 10 in its order (the categorical palette Maureen Stone designed for Tableau 10, 2016, to be told apart
 * on light and dark backgrounds), so sports side by side in a week never share one family's near-identical
 * shades. Past ten sports, greys of distinct lightness. Pure: no DOM.
 */
const tableau10 = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
const beyondTen = ["#6b6b6b", "#9a9a9a", "#4a4a4a", "#c4c4c4"];

/** The colour of each of `sports` (in the order given: the most training first), and a grey for any other. */
export function sportPalette(sports: readonly string[]): (sport: string) => string {
  const colors = new Map<string, string>();
  for (const sport of sports) {
    if (!colors.has(sport)) colors.set(sport, tableau10[colors.size] ?? beyondTen[(colors.size - tableau10.length) % beyondTen.length]!);
  }
  return (sport) => colors.get(sport) ?? beyondTen[0]!;
}

/** "WeightTraining" as "Weight training". */
export function sportName(sport: string): string {
  const words = sport.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
