/**
 * The key access tokens, refresh tokens and the sign-in's signed messages are made with (HMAC, at least 32
 * bytes), the same for every instance, and the secret path of Strava's webhook derived from it
 * (strava/webhook-path.ts). Two backends: a file of the state directory made once (file-signing-key.ts), and a
 * Secrets Manager secret the hosted template generates (secrets-manager-signing-key.ts).
 */
export interface SigningKeyStore {
  /** Where the key lives, for messages and logs (never the key). */
  readonly description: string;
  signingKey(signal: AbortSignal): Promise<Uint8Array>;
}
