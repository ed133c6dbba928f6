/**
 * The refresh tokens this server issues: `<grant id>.<generation>.<mac>`, where the generation counts the
 * grant's rotations and the MAC (HMAC-SHA-256 under the access-token signing key) binds both, so a token
 * cannot be made up. The grant stores the hash of its current token and its generation: a token of an
 * older generation whose MAC holds is one this server issued and the grant has since replaced, however
 * long ago, so presenting it again means the grant's tokens leaked (OAuth 2.0 Security BCP section
 * 4.14.2). Nothing grows with the grant's age.
 *
 * Tokens issued before generations (`<grant id>.<43 characters>`) are still accepted by their stored hash
 * and replaced by the new form at their next refresh.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type ParsedRefreshToken = { grantId: string; generation: number } | { grantId: string; generation: undefined };

const current = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
const legacy = /^([0-9a-f-]{36})\.[A-Za-z0-9_-]{43}$/;

export class RefreshTokens {
  readonly #key: Uint8Array;

  constructor(key: Uint8Array) {
    this.#key = key;
  }

  issue(grantId: string, generation: number): string {
    return `${grantId}.${generation}.${this.#mac(grantId, generation)}`;
  }

  /** The grant and generation a token names, or undefined when it is not one this server could have issued. */
  parse(token: string): ParsedRefreshToken | undefined {
    const match = current.exec(token);
    if (match) {
      const [, grantId = "", generation = "", mac = ""] = match;
      const expected = Buffer.from(this.#mac(grantId, Number(generation)));
      if (!timingSafeEqual(expected, Buffer.from(mac))) return undefined;
      return { grantId, generation: Number(generation) };
    }
    const old = legacy.exec(token)?.[1];
    return old === undefined ? undefined : { grantId: old, generation: undefined };
  }

  #mac(grantId: string, generation: number): string {
    return createHmac("sha256", this.#key).update(`refresh:${grantId}:${generation}`).digest("base64url");
  }
}
