/**
 * Small helpers for treating a parsed host config (JSON5 text, JSON values only) as a tree.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function cloneJson<T extends JsonValue>(value: T): T {
  return structuredClone(value);
}

/** JSON text with object keys sorted, so two values compare equal regardless of key order. */
export function canonicalJson(value: JsonValue | undefined): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (!isJsonObject(inner)) return inner;
    return Object.fromEntries(
      Object.keys(inner)
        .sort()
        .map((key) => [key, inner[key]]),
    );
  });
}

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** The object at `path` below `root`, created (as `{}`) where missing. Throws when a non-object is in the way. */
export function ensureObject(root: JsonObject, path: readonly string[]): JsonObject {
  let node = root;
  for (const [index, key] of path.entries()) {
    const next = node[key];
    if (next === undefined) {
      const created: JsonObject = {};
      node[key] = created;
      node = created;
    } else if (isJsonObject(next)) {
      node = next;
    } else {
      throw new TypeError(`${path.slice(0, index + 1).join(".")} must be an object in the host config`);
    }
  }
  return node;
}

/** The value at `path`, or undefined when any step is missing or not an object. */
export function getPath(root: JsonValue, path: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const key of path) {
    if (!isJsonObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Every object key path in the tree that is literally `key` (used to find `$include`). */
export function findKeyPaths(root: JsonValue, key: string, prefix: string[] = []): string[] {
  const found: string[] = [];
  if (Array.isArray(root)) {
    root.forEach((item, index) => found.push(...findKeyPaths(item, key, [...prefix, `[${index}]`])));
  } else if (isJsonObject(root)) {
    for (const [name, value] of Object.entries(root)) {
      if (name === key) found.push([...prefix, name].join("."));
      found.push(...findKeyPaths(value, key, [...prefix, name]));
    }
  }
  return found;
}
