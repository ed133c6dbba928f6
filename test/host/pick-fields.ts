/** The named fields of a host answer, for comparing only what a check is about. */
export function pick(record: object, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, (record as Record<string, unknown>)[key]]));
}
