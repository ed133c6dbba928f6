/**
 * Short-lived signed messages that travel through the browser between the steps of a sign-in: the
 * checked authorization request on the consent page, and the state sent through Strava's sign-in. They
 * are JWTs signed with the server's key (jose), each with its own audience so one can never pass for
 * another (or for an access token), and they expire after 15 minutes. Nothing in them is secret (the
 * browser saw all of it in the URL already); the signature is what makes them trustworthy. A signature
 * cannot make a message single use: Strava's state carries an id the callback spends in the store
 * (authorization-endpoint.ts).
 */
import { jwtVerify, SignJWT, type JWTPayload } from "jose";

export type MessagePurpose = "consent" | "strava-state";

export const lifetimeSeconds = 15 * 60;

export class SignedMessages {
  readonly #issuer: string;
  readonly #key: Uint8Array;
  readonly #now: () => number;

  constructor(options: { issuer: string; key: Uint8Array; now?: () => number }) {
    this.#issuer = options.issuer;
    this.#key = options.key;
    this.#now = options.now ?? Date.now;
  }

  async sign(purpose: MessagePurpose, content: Record<string, unknown>): Promise<string> {
    const now = Math.floor(this.#now() / 1000);
    return new SignJWT(content as JWTPayload)
      .setProtectedHeader({ alg: "HS256", typ: `openclaw-fitness+${purpose}` })
      .setIssuer(this.#issuer)
      .setAudience(`${this.#issuer}#${purpose}`)
      .setIssuedAt(now)
      .setExpirationTime(now + lifetimeSeconds)
      .sign(this.#key);
  }

  /** The content, or undefined when the message is not ours, not for `purpose`, altered or expired. */
  async open<T>(purpose: MessagePurpose, message: string): Promise<T | undefined> {
    try {
      const { payload } = await jwtVerify(message, this.#key, {
        issuer: this.#issuer,
        audience: `${this.#issuer}#${purpose}`,
        algorithms: ["HS256"],
        typ: `openclaw-fitness+${purpose}`,
        currentDate: new Date(this.#now()),
      });
      return payload as T;
    } catch {
      return undefined;
    }
  }
}
