/**
 * A colour per Strava sport type, by family so a week reads at a glance (rides blue, runs orange, swims
 * teal, strength violet, walks and hikes green, yoga and the like pink), a different shade for each sport of
 * a family; a sport not named here gets a grey of its own. Pure: no DOM.
 */
const families: ReadonlyArray<[readonly string[], readonly string[]]> = [
  [
    ["Ride", "GravelRide", "VirtualRide", "MountainBikeRide", "EBikeRide", "EMountainBikeRide", "Velomobile", "Handcycle"],
    ["#1b6fc9", "#5b9be0", "#0d4a8c", "#8bbcf0", "#3a86d9", "#b5d4f5", "#2a5d99", "#6f95c2"],
  ],
  [
    ["Run", "TrailRun", "VirtualRun"],
    ["#e8710a", "#b5530a", "#f5a35c"],
  ],
  [["Swim"], ["#0f9d9a"]],
  [
    ["WeightTraining", "Workout", "Crossfit", "HighIntensityIntervalTraining"],
    ["#7b4fd6", "#a88bec", "#5a34a8", "#c7b5f5"],
  ],
  [
    ["Walk", "Hike"],
    ["#3c9a48", "#7cc184"],
  ],
  [
    ["Yoga", "Pilates"],
    ["#d94f8a", "#ee94ba"],
  ],
  [
    ["Rowing", "VirtualRow", "Kayaking", "Canoeing", "StandUpPaddling"],
    ["#2a9fbc", "#6cc3d9", "#1d7389", "#97d6e6", "#55a9bd"],
  ],
  [
    ["AlpineSki", "BackcountrySki", "NordicSki", "Snowboard", "Snowshoe"],
    ["#5c6bc0", "#8e99d6", "#3949ab", "#b3bbe6", "#7986cb"],
  ],
];
const greys = ["#7d8794", "#a2aab4", "#5b6370", "#c0c6cd"];

export function sportColor(sport: string): string {
  for (const [sports, shades] of families) {
    const index = sports.indexOf(sport);
    if (index !== -1) return shades[index % shades.length] ?? "#7d8794";
  }
  let hash = 0;
  for (const character of sport) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return greys[hash % greys.length] ?? "#7d8794";
}

/** "WeightTraining" as "Weight training". */
export function sportName(sport: string): string {
  const words = sport.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
