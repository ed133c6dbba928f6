/**
 * The views' HTML by name. From the TypeScript sources (tests, tsx) the views are built here, or read from
 * the last build when their sources have not changed (build-views.mjs); the server's bundles replace this
 * module with the HTML built with them (embed-at-build.mjs). Imported only when a client reads a view.
 */
import { sourcesChanged } from "../build-server.mjs";
import { currentViews } from "./build-views.mjs";

export const viewHtml: Readonly<Record<string, string>> = (await currentViews(sourcesChanged)).html;
