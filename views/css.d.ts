/** A view's style sheet: esbuild inlines it into the page (build/views.mjs). */
declare module "*.css";
