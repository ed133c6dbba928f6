/**
 * An HTTP proxy on loopback in front of moto_server that misbehaves the way AWS and the network can, per
 * API call (the `X-Amz-Target` header, e.g. "secretsmanager.UpdateSecretVersionStage"):
 *
 * - `deny`: answers 400 AccessDeniedException as AWS does for a permission the role lacks, without
 *   forwarding (nothing changes in the store);
 * - `lose-answer`: forwards the request, lets moto act on it, then cuts the connection instead of
 *   returning the answer (the call went through but the caller never learns it);
 * - `hang`: accepts the request and never answers (a store that stopped responding).
 *
 * `hangAll` makes every call hang, or only those whose request body includes a given text (one DynamoDB
 * item's key, say, while the table's other items are served). Everything else is forwarded as is. Counts
 * each call by target, so tests can see what was sent.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

export type AwsFault = "deny" | "lose-answer" | "hang";

export interface AwsFaultProxy {
  url: string;
  /** Applies `fault` to the next `times` calls of `target` (the action name, e.g. "UpdateSecretVersionStage"). */
  inject(target: string, fault: AwsFault, times?: number): void;
  /**
   * Every call from now on hangs, or with `bodyIncludes` every call whose request body includes that text
   * (with false, calls are served again); hanging requests stay open until `close`.
   */
  hangAll(hang: boolean, bodyIncludes?: string): void;
  clear(): void;
  calls(): Record<string, number>;
  close(): Promise<void>;
}

export async function startAwsFaultProxy(target: URL): Promise<AwsFaultProxy> {
  const rules = new Map<string, { fault: AwsFault; remaining: number }>();
  const counts: Record<string, number> = {};
  const sockets = new Set<Socket>();
  let hangEverything = false;
  let hangOnlyIfBodyIncludes: string | undefined;

  const server: Server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => handle(incoming, Buffer.concat(chunks), outgoing));
  });
  const handle = (incoming: IncomingMessage, body: Buffer, outgoing: ServerResponse): void => {
    const header = String(incoming.headers["x-amz-target"] ?? "");
    const action = header.slice(header.indexOf(".") + 1);
    counts[action] = (counts[action] ?? 0) + 1;
    const rule = rules.get(action);
    let fault: AwsFault | undefined;
    if (rule) {
      fault = rule.fault;
      if (--rule.remaining <= 0) rules.delete(action);
    }
    if (hangEverything && (hangOnlyIfBodyIncludes === undefined || body.includes(hangOnlyIfBodyIncludes))) fault = "hang";
    if (fault === "hang") return;
    if (fault === "deny") {
      const denial = JSON.stringify({
        __type: "AccessDeniedException",
        Message: `User: arn:aws:sts::123456789012:assumed-role/openclaw-host/i-0 is not authorized to perform: secretsmanager:${action} because no identity-based policy allows the secretsmanager:${action} action`,
      });
      outgoing.writeHead(400, {
        "content-type": "application/x-amz-json-1.1",
        "x-amzn-errortype": "AccessDeniedException",
        "content-length": Buffer.byteLength(denial),
      });
      outgoing.end(denial);
      return;
    }
    const forwarded = httpRequest(
      { hostname: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (answer) => {
        if (fault === "lose-answer") {
          answer.resume();
          answer.on("end", () => outgoing.socket?.destroy());
          return;
        }
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.socket?.destroy());
    forwarded.end(body);
  };
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await once(server.listen(0, "127.0.0.1"), "listening");
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("proxy did not bind");
  return {
    url: `http://127.0.0.1:${address.port}`,
    inject: (action, fault, times = 1) => rules.set(action, { fault, remaining: times }),
    hangAll: (hang, bodyIncludes) => {
      hangEverything = hang;
      hangOnlyIfBodyIncludes = hang ? bodyIncludes : undefined;
    },
    clear: () => rules.clear(),
    calls: () => ({ ...counts }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
