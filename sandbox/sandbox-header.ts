/**
 * The header the sandbox puts on every answer, so that a server pointed at it through STRAVA_API_BASE (the lines
 * `npm run sandbox` prints) can tell it is not Strava and say so: Strava never sends it. Its own small file, so a
 * front end can read it without loading the sandbox's seed data.
 */
export const sandboxHeader = "x-openclaw-fitness-sandbox";
