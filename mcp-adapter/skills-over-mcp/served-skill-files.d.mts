/** See served-skill-files.mjs. */
export declare const servedSkillFiles: ReadonlyArray<{ path: string; title: string }>;
