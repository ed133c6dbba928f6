/**
 * A readable, line-per-leaf description of what changed between two host configs.
 * Values under credential-looking keys are masked so a printed diff never shows a secret.
 */
import { canonicalJson, isJsonObject, jsonEqual, type JsonValue } from "./json-tree.ts";

export type ConfigChange =
  | { kind: "added"; path: string; value: JsonValue }
  | { kind: "removed"; path: string; value: JsonValue }
  | { kind: "changed"; path: string; before: JsonValue; after: JsonValue };

export function diffConfigs(before: JsonValue | undefined, after: JsonValue | undefined, at = ""): ConfigChange[] {
  if (jsonEqual(before, after)) return [];
  if (before === undefined) return leaves(after as JsonValue, at).map(([path, value]) => ({ kind: "added", path, value }));
  if (after === undefined) return leaves(before, at).map(([path, value]) => ({ kind: "removed", path, value }));
  if (isJsonObject(before) && isJsonObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => diffConfigs(before[key], after[key], join(at, key)));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    // Lists are compared as collections: report whole items that appeared or disappeared.
    const beforeItems = before.map((item) => canonicalJson(item));
    const afterItems = after.map((item) => canonicalJson(item));
    return [
      ...after.flatMap((item, index): ConfigChange[] =>
        beforeItems.includes(afterItems[index] ?? "") ? [] : [{ kind: "added", path: `${at}[]`, value: item }],
      ),
      ...before.flatMap((item, index): ConfigChange[] =>
        afterItems.includes(beforeItems[index] ?? "") ? [] : [{ kind: "removed", path: `${at}[]`, value: item }],
      ),
    ];
  }
  return [{ kind: "changed", path: at, before, after }];
}

/** One line per change: `+ path = value`, `- path = value`, `~ path: old -> new`. */
export function formatChanges(changes: readonly ConfigChange[]): string[] {
  return changes.map((change) => {
    switch (change.kind) {
      case "added":
        return `+ ${change.path} = ${show(change.path, change.value)}`;
      case "removed":
        return `- ${change.path} = ${show(change.path, change.value)}`;
      case "changed":
        return `~ ${change.path}: ${show(change.path, change.before)} -> ${show(change.path, change.after)}`;
    }
  });
}

const secretKey = /(token|secret|password|apikey|api_key|privatekey)$/i;

/** Compact JSON for display, with plaintext credentials masked (SecretRef objects stay visible). */
export function show(path: string, value: JsonValue): string {
  return JSON.stringify(value, (key, inner: unknown) => {
    const name =
      key === ""
        ? (path
            .split(/[.[\]]/)
            .filter(Boolean)
            .pop() ?? "")
        : key;
    return typeof inner === "string" && secretKey.test(name) ? "<redacted>" : inner;
  });
}

function leaves(value: JsonValue, at: string): Array<[string, JsonValue]> {
  if (isJsonObject(value) && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([key, inner]) => leaves(inner, join(at, key)));
  }
  return [[at, value]];
}

function join(at: string, key: string): string {
  const segment = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return at === "" ? segment : `${at}.${segment}`;
}
