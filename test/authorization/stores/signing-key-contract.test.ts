/**
 * The signing key's contract, checked the same way on both backends (the state directory's file, and a Secrets
 * Manager secret on moto_server): every instance signs with the same key of at least 32 bytes, made once.
 */
import { describe, expect, it } from "vitest";
import { signal, storeBackends } from "./store-backends.ts";

describe.each(storeBackends("signing-key"))("the signing key on %s", (_name, { open }) => {
  it("every instance signs with the same key of at least 32 bytes", async () => {
    const instances = await Promise.all([open(), open(), open()]);
    const keys = await Promise.all(instances.map((stores) => stores.signingKey.signingKey(signal())));
    expect(keys[0]?.length).toBeGreaterThanOrEqual(32);
    for (const key of keys) expect(Buffer.from(key).equals(Buffer.from(keys[0] as Uint8Array))).toBe(true);
    expect(Buffer.from(await (await open()).signingKey.signingKey(signal())).equals(Buffer.from(keys[0] as Uint8Array))).toBe(true);
  });
});
