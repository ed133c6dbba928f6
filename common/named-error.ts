/**
 * Error classes whose `name` is their class name without each one saying so, and the message of anything
 * thrown. The name survives bundling: minified bundles keep class names (`keepNames`), and in the unminified
 * ones (the server, the plugin) no error class of ours is renamed (build/bundle-options.mjs,
 * test/common/bundled-error-names.test.ts).
 */
export class NamedError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The message of an Error, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
