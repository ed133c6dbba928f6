/**
 * One long-lived SDK `Server` serving every HTTP POST, through this small `Transport`.
 *
 * Why not the SDK's `StreamableHTTPServerTransport`: in stateless mode it must be created anew for
 * every request, and so must the `Server` it connects to (each `Server` builds its own Ajv validator);
 * that setup dominates the cost of a tool call (see BENCHMARKS.md). Here the protocol handling stays
 * entirely in the SDK's `Server`; this transport only carries messages between HTTP exchanges and it.
 *
 * Clients pick their own JSON-RPC ids, and many clients share this one `Server`, so ids would collide.
 * Each incoming request therefore gets a process-unique id on the way in, and its response gets the
 * client's id back on the way out. Responses resolve the HTTP exchange that carried the requests
 * (JSON response mode: one JSON body per POST, no SSE), so clients see a plain stateless endpoint.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type MessageExtraInfo,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../tools/logger.ts";

/** One POST's worth of messages waiting for their responses. */
interface Exchange {
  readonly replies: (JSONRPCResponse | undefined)[];
  remaining: number;
  resolve(replies: JSONRPCResponse[]): void;
}

interface Waiting {
  readonly exchange: Exchange;
  readonly index: number;
  readonly clientId: RequestId;
}

/** What `dispatch` hands back: the responses to come, and a way to give up on them. */
export interface PendingReplies {
  /** Resolves with one response per request, in request order. */
  readonly replies: Promise<JSONRPCResponse[]>;
  /** The HTTP client went away: cancel the requests still running (their handlers see an aborted signal). */
  abandon(reason: string): void;
}

export class StatelessHttpTransport implements Transport {
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;

  readonly #logger: Logger;
  readonly #waiting = new Map<number, Waiting>();
  #lastId = 0;
  #closed = false;

  constructor(options: { logger: Logger }) {
    this.#logger = options.logger;
  }

  async start(): Promise<void> {}

  /** Requests still waiting for their response (for shutdown and tests). */
  get inFlight(): number {
    return this.#waiting.size;
  }

  /**
   * Feeds the notifications of one POST to the server. Nothing is answered for them; client
   * cancellations are dropped because a stateless client cannot name a request of ours.
   */
  deliverNotifications(notifications: readonly JSONRPCNotification[]): void {
    for (const notification of notifications) {
      if (notification.method === "notifications/cancelled") {
        this.#logger.debug("mcp_cancel_ignored", { reason: "stateless endpoint: cancel by closing the HTTP request" });
        continue;
      }
      this.onmessage?.(notification);
    }
  }

  /** Feeds the requests of one POST to the server; `replies` resolves once every one is answered. */
  dispatch(requests: readonly JSONRPCRequest[]): PendingReplies {
    let resolve!: (replies: JSONRPCResponse[]) => void;
    const replies = new Promise<JSONRPCResponse[]>((done) => (resolve = done));
    const exchange: Exchange = { replies: new Array(requests.length), remaining: requests.length, resolve };
    const ids: number[] = [];
    if (this.#closed) {
      resolve(requests.map((request) => closingError(request.id)));
      return { replies, abandon: () => {} };
    }
    for (let index = 0; index < requests.length; index++) {
      const request = requests[index]!;
      const id = ++this.#lastId;
      ids.push(id);
      this.#waiting.set(id, { exchange, index, clientId: request.id });
    }
    // Registered first, delivered second: a handler may answer synchronously.
    for (let index = 0; index < requests.length; index++) {
      this.onmessage?.({ ...requests[index]!, id: ids[index]! });
    }
    return {
      replies,
      abandon: (reason) => {
        for (const id of ids) {
          const waiting = this.#waiting.get(id);
          if (waiting === undefined) continue;
          this.#waiting.delete(id);
          // The SDK aborts the handler's signal, which cancels the upstream request too.
          this.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } });
          // Nobody reads this answer; settling it lets the exchange finish instead of waiting forever.
          settle(waiting, { jsonrpc: "2.0", id: waiting.clientId, error: { code: ErrorCode.RequestTimeout, message: reason } });
        }
      },
    };
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!("id" in message) || !("result" in message || "error" in message)) {
      // Server-initiated notifications or requests have no channel on a stateless JSON endpoint.
      this.#logger.debug("mcp_server_message_dropped", { method: "method" in message ? message.method : undefined });
      return;
    }
    const waiting = this.#waiting.get(message.id as number);
    if (waiting === undefined) return; // abandoned by its client
    this.#waiting.delete(message.id as number);
    settle(waiting, { ...message, id: waiting.clientId } as JSONRPCResponse);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const waiting of this.#waiting.values()) settle(waiting, closingError(waiting.clientId));
    this.#waiting.clear();
    this.onclose?.();
  }
}

function settle(waiting: Waiting, reply: JSONRPCResponse): void {
  const { exchange } = waiting;
  exchange.replies[waiting.index] = reply;
  exchange.remaining -= 1;
  if (exchange.remaining === 0) exchange.resolve(exchange.replies as JSONRPCResponse[]);
}

function closingError(id: RequestId): JSONRPCResponse {
  return { jsonrpc: "2.0", id, error: { code: ErrorCode.ConnectionClosed, message: "The server is shutting down; try again." } };
}
