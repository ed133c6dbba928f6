/**
 * The upkeep of an API key that never changes (intervals.icu's personal key): nothing to refresh, save or
 * wait for at shutdown, and a state learnt from the answers the key gets. Until a request has been answered
 * the state is `unchecked` (the server starts without asking the upstream anything, so a wrong key never stops
 * it starting); a refusal of the key makes it `needs_authorization` (health answers 503, naming where the key is
 * set), and any later success makes it `ok` again. A refusal of the key is a 401, or a 403 to a request of the
 * athlete's own (`/athlete/{id}...`: the key does not open their log); a 403 elsewhere can be about one record (an
 * activity of somebody else's) and says nothing of the key.
 */
import type { TrainingLogClient } from "../common/upstream/training-log-client.ts";
import { UpstreamStatusError } from "../common/upstream/upstream-errors.ts";
import type { CredentialUpkeep } from "./credential-upkeep.ts";
import type { CredentialHealth, CredentialState } from "./token-manager.ts";

export class ApiKeyHealth implements CredentialUpkeep {
  readonly #refusedMessage: string;
  readonly #now: () => number;
  #state: { state: CredentialState; sinceMs: number };

  /** `refusedMessage`: what the health check says once the key is refused (where to set a new one; never the key). */
  constructor(options: { refusedMessage: string; now?: () => number }) {
    this.#refusedMessage = options.refusedMessage;
    this.#now = options.now ?? Date.now;
    this.#state = { state: "unchecked", sinceMs: this.#now() };
  }

  /** `client`, with each answer it gets noted here. */
  observe(client: TrainingLogClient): TrainingLogClient {
    return {
      send: async (request, options) => {
        try {
          const answer = await client.send(request, options);
          this.#set("ok");
          return answer;
        } catch (error) {
          if (error instanceof UpstreamStatusError && refusesKey(error.status, request.path)) this.#set("needs_authorization");
          throw error;
        }
      },
      backgroundReadsResumeAt: (share) => client.backgroundReadsResumeAt(share),
    };
  }

  async health(): Promise<CredentialHealth> {
    const { state, sinceMs } = this.#state;
    return { state, ...(state === "needs_authorization" ? { message: this.#refusedMessage } : {}), since: new Date(sinceMs).toISOString() };
  }

  async settle(): Promise<{ lost: boolean }> {
    return { lost: false };
  }

  resume(): void {}

  #set(state: CredentialState): void {
    if (this.#state.state !== state) this.#state = { state, sinceMs: this.#now() };
  }
}

function refusesKey(status: number, path: string): boolean {
  return status === 401 || (status === 403 && path.startsWith("/athlete/"));
}
