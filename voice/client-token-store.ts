/**
 * Where the authorizer gets the shared client token: an SSM SecureString read with decryption and kept in
 * the container for a short time, or (for the local gateway only) a fixed value.
 *
 * Not AWS Powertools Parameters (SSMProvider with maxAge 60): its cache would not keep the rotation
 * behaviour. It cannot say how old a cached value is, so "re-read after a mismatch only if our copy is at
 * least 5 s old" would need a second clock kept beside its own; concurrent reads on a cold container are
 * not shared (each calls SSM); and its expiry runs on Date.now with no clock to inject. Failures are not
 * cached there either, but what would be left of ours is all of the above.
 */
import { GetParameterCommand, type SSMClient } from "@aws-sdk/client-ssm";
import { NamedError } from "../common/named-error.ts";

export interface ClientTokenSource {
  /** The current token, from the cache while it is fresh. */
  current(): Promise<string>;
  /**
   * The token re-read from the store unless the cached copy is younger than `minAgeMs`. Called after a
   * mismatch, so a freshly rotated token is accepted within seconds instead of after the whole cache period.
   */
  refreshIfOlderThan(minAgeMs: number): Promise<string>;
}

/**
 * How long a container trusts its copy of the token: 60 s. After a rotation the old token keeps working for
 * up to this long in warm containers; the new one works at once (a mismatch triggers a re-read, see above).
 */
export const clientTokenCacheMs = 60_000;

/** The token could not be read (missing parameter, no permission, empty value, network). Never holds the token. */
export class ClientTokenStoreError extends NamedError {}

export interface SsmClientTokenStoreOptions {
  client: SSMClient;
  parameterName: string;
  cacheMs?: number;
  now?: () => number;
}

export class SsmClientTokenStore implements ClientTokenSource {
  readonly #client: SSMClient;
  readonly #parameterName: string;
  readonly #cacheMs: number;
  readonly #now: () => number;
  #cached: { value: string; readAt: number } | null = null;
  #inFlight: Promise<string> | null = null;

  constructor(options: SsmClientTokenStoreOptions) {
    this.#client = options.client;
    this.#parameterName = options.parameterName;
    this.#cacheMs = options.cacheMs ?? clientTokenCacheMs;
    this.#now = options.now ?? Date.now;
  }

  current(): Promise<string> {
    return this.refreshIfOlderThan(this.#cacheMs);
  }

  refreshIfOlderThan(minAgeMs: number): Promise<string> {
    if (this.#cached && this.#now() - this.#cached.readAt < minAgeMs) return Promise.resolve(this.#cached.value);
    // Concurrent requests on a cold container share one read.
    this.#inFlight ??= this.#read().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  async #read(): Promise<string> {
    let value: string | undefined;
    try {
      const output = await this.#client.send(new GetParameterCommand({ Name: this.#parameterName, WithDecryption: true }));
      value = output.Parameter?.Value;
    } catch (error) {
      const name = error instanceof Error ? error.name : "unknown error";
      throw new ClientTokenStoreError(`Could not read the client token parameter ${this.#parameterName}: ${name}.`);
    }
    if (!value) throw new ClientTokenStoreError(`The client token parameter ${this.#parameterName} is empty.`);
    this.#cached = { value, readAt: this.#now() };
    return value;
  }
}

/** A token given directly, for the local gateway (VOICE_LOCAL_CLIENT_TOKEN); never used in AWS. */
export class StaticClientToken implements ClientTokenSource {
  readonly #value: string;

  constructor(value: string) {
    if (value === "") throw new ClientTokenStoreError("The local client token is empty.");
    this.#value = value;
  }

  current(): Promise<string> {
    return Promise.resolve(this.#value);
  }

  refreshIfOlderThan(): Promise<string> {
    return Promise.resolve(this.#value);
  }
}
