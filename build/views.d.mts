/** See build-views.mjs. */
export declare const root: string;
export declare const viewsBuildDirectory: string;
export declare const viewNames: readonly string[];
/** The content security policy of a page whose one inline script is `inlineScript` (allowed by its SHA-256 hash). */
export declare function viewContentSecurityPolicy(inlineScript: string): string;

export interface ViewsBuild {
  build: string;
  /** Each view's file, relative to viewsBuildDirectory. */
  views: Record<string, string>;
  sources: Record<string, { size: number; mtimeMs: number; sha256: string }>;
  html: Record<string, string>;
}

export declare function buildViews(): Promise<ViewsBuild>;
/** `sourcesChanged` is build-server.mjs's check of a manifest's sources. */
export declare function currentViews(sourcesChanged: (manifest: Pick<ViewsBuild, "sources">) => boolean): Promise<ViewsBuild>;
