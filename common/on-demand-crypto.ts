/**
 * node:crypto for the modules every start of the MCP server loads (digests, durable writes, file locks, the
 * token file), loaded on first use instead of when they are imported. Loading node:crypto costs each start a
 * few milliseconds, and a stdio client waits for the first answers (initialize, tools/list), before which no
 * start hashes or draws random bytes: the first tool call pays instead, beside an upstream request hundreds of
 * times longer. test/mcp-adapter/stdio-start-modules.test.ts checks that a stdio start answers without it.
 * Modules that load later (OAuth mode, the hosted function, the sandbox) import node:crypto as usual.
 */

/** node:crypto itself, loaded the first time it is asked for (Node keeps it from then on). */
export function nodeCrypto(): ReturnType<typeof process.getBuiltinModule<"node:crypto">> {
  return process.getBuiltinModule("node:crypto");
}

/** `bytes` random bytes in hex: the unique part of a temporary file's or a lock's name. */
export function randomHex(bytes: number): string {
  return nodeCrypto().randomBytes(bytes).toString("hex");
}
