import type { ArtifactCache, BuildManifest } from "./artifact-cache.mjs";

/** See views.mjs. */
export declare const viewsCache: ArtifactCache;
export declare const viewNames: readonly string[];
/** The content security policy of a page whose one inline script is `inlineScript` (allowed by its SHA-256 hash). */
export declare function viewContentSecurityPolicy(inlineScript: string): string;

export interface ViewsBuild extends BuildManifest {
  /** Each view's file, relative to viewsCache.directory. */
  views: Record<string, string>;
  html: Record<string, string>;
}

export declare function buildViews(): Promise<ViewsBuild>;
export declare function currentViews(): Promise<ViewsBuild>;
