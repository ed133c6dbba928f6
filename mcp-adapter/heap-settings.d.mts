/** See heap-settings.mjs. */
export declare const httpHeapFlags: readonly string[];
