/**
 * Error classes whose `name` is their class name without each one saying so, and the message of anything
 * thrown. Bundles keep class names (`keepNames` in common/bundle-options.mjs), so the name survives
 * minification.
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
