/** Where `npm run setup:coach` finds the OpenClaw host's state (the host's own variables, read the host's way). */
import { defineSetting, text } from "./setting.ts";

export const openclawStateDir = defineSetting({
  name: "OPENCLAW_STATE_DIR",
  type: "path",
  defaultText: "~/.openclaw",
  meaning: "the OpenClaw host's state folder (its default workspace is inside)",
  readBy: ["setup:coach"],
  parse: text(),
});

export const openclawWorkspaceDir = defineSetting({
  name: "OPENCLAW_WORKSPACE_DIR",
  type: "path",
  defaultText: "$OPENCLAW_STATE_DIR/workspace",
  meaning: "the OpenClaw host's default workspace",
  readBy: ["setup:coach"],
  parse: text(),
});

export const openclawProfile = defineSetting({
  name: "OPENCLAW_PROFILE",
  type: "name",
  defaultText: "none",
  meaning: "the OpenClaw host's profile (its state folder is ~/.openclaw-<profile>)",
  readBy: ["setup:coach"],
  parse: text(),
});

export const home = defineSetting({
  name: "HOME",
  type: "path",
  defaultText: "the user's home",
  meaning: "the home folder: the host's default state folder is under it, and a token file given as ~/... is in it",
  readBy: ["setup:coach", "authorize"],
  parse: text(),
});
