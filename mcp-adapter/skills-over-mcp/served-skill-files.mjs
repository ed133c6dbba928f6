/**
 * The coaching skill's files the MCP server serves, from skills/fitness-coaching/, SKILL.md first: the part a model
 * reads before it acts, then the files it names for the tasks that need them. An explicit list, shared by the
 * TypeScript sources (coaching-skill-file.ts reads them) and the bundles (embed-at-build.mjs embeds them): a file
 * the plugin's host alone reads in that folder is not served, and a file added there is served only once named here.
 * Only a build reads this file: a checkout's sources, never the published package, whose server is built already.
 */

/** @type {ReadonlyArray<{ path: string; title: string }>} */
export const servedSkillFiles = Object.freeze([
  { path: "SKILL.md", title: "Fitness coaching skill" },
  { path: "logging.md", title: "Fitness coaching: logging an activity" },
  { path: "training-load.md", title: "Fitness coaching: training load" },
  { path: "wellness.md", title: "Fitness coaching: wellness and readiness" },
  { path: "activity-data.md", title: "Fitness coaching: one activity in depth, and uploads" },
]);
