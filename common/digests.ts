/**
 * SHA-256 digests and the one way secrets are compared: both sides hashed first, then compared with
 * `timingSafeEqual`, so the comparison takes the same time wherever the strings differ and whatever their
 * lengths (timingSafeEqual alone needs equal lengths, and checking lengths first would tell a guesser the
 * secret's length).
 */
import { nodeCrypto } from "./on-demand-crypto.ts";

/** Hex SHA-256 of text (UTF-8) or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return nodeCrypto().createHash("sha256").update(data).digest("hex");
}

/** Whether a presented secret (a bearer token, a client token, an OAuth state) equals the expected one. */
export function secretsMatch(presented: string, expected: string): boolean {
  const { createHash, timingSafeEqual } = nodeCrypto();
  const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
