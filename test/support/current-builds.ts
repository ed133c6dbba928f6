/**
 * vitest's globalSetup: brings the built artifacts up to date once, before any test file runs, as the launcher does
 * on a start in a checkout. The server's sources read the views from their build (mcp-adapter/apps/view-html.ts
 * never builds), so a view edited since the last build must be built before a test reads it; and the test files that
 * start the server as `npm start` does would otherwise each find the same change and rebuild it at once. When
 * nothing changed this costs a few stat calls.
 */
import { readManifest, root, sourcesChanged } from "../../build/artifact-cache.mjs";
import { buildServer, serverCache } from "../../build/server.mjs";
import { currentViews } from "../../build/views.mjs";

export default async function bringBuildsUpToDate(): Promise<void> {
  const server = readManifest(serverCache);
  // The server's build embeds the views, and builds them first when they changed.
  if (server === undefined || sourcesChanged(server, root)) await buildServer();
  else await currentViews();
}
