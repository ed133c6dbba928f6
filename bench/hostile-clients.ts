/**
 * The hostile clients of bench/hostile-http.ts, in a process of their own (so the legitimate client's
 * timing is not taken in a process that is busy attacking). One kind per process, until SIGTERM; then
 * one JSON line of counts on standard output.
 *
 *   node --import tsx bench/hostile-clients.ts KIND PORT [TOKEN]
 *
 * KIND:
 * - endless-bodies: 20 connections each sending a POST with a wrong bearer token and a 4 GB body, as
 *   fast as the socket takes it; reconnecting whenever the server closes one;
 * - brute-force: 32 loops, each a fresh POST with a random bearer token, as fast as they are answered;
 * - slow-connections: 5,000 connections sending one header line and then one more every 5 s (never
 *   finishing their headers); reconnecting whenever the server closes one;
 * - large-bodies: 10 loops, each POSTing a 39 MiB tools/call (a create_upload) with the valid TOKEN.
 */
import { connect, type Socket } from "node:net";
import { randomBytes } from "node:crypto";

const [kind, portText, token] = process.argv.slice(2);
const port = Number(portText);
let stopping = false;
const counts = { connections: 0, requests: 0, answers: 0, bytesSent: 0, errors: 0 };

function openSocket(onOpen: (socket: Socket) => void, onClosed: () => void): void {
  if (stopping) return;
  const socket = connect(port, "127.0.0.1");
  counts.connections += 1;
  socket.on("error", () => {
    counts.errors += 1;
  });
  socket.once("close", () => {
    if (!stopping) setImmediate(onClosed);
  });
  socket.once("connect", () => onOpen(socket));
}

function endlessBodies(): void {
  const chunk = Buffer.alloc(64 * 1024, "A");
  const one = (): void =>
    openSocket((socket) => {
      counts.requests += 1;
      socket.on("data", () => (counts.answers += 1));
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer wrong-${randomBytes(8).toString("hex")}\r\nContent-Length: 4000000000\r\n\r\n`,
      );
      const pump = (): void => {
        while (!socket.destroyed && !stopping) {
          counts.bytesSent += chunk.length;
          if (!socket.write(chunk)) {
            socket.once("drain", pump);
            return;
          }
        }
      };
      pump();
    }, one);
  for (let index = 0; index < 20; index++) one();
}

async function bruteForce(): Promise<void> {
  const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
  const loop = async (): Promise<void> => {
    while (!stopping) {
      counts.requests += 1;
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${randomBytes(16).toString("hex")}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body,
        });
        await answer.arrayBuffer();
        counts.answers += 1;
      } catch {
        counts.errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, loop));
}

function slowConnections(): void {
  const one = (): void =>
    openSocket((socket) => {
      socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      const trickle = setInterval(() => socket.write(`X-Slow-${randomBytes(2).toString("hex")}: 1\r\n`), 5_000);
      socket.once("close", () => clearInterval(trickle));
    }, one);
  // Opened in batches, so the attack builds up as it would from a remote client.
  let opened = 0;
  const batch = setInterval(() => {
    for (let index = 0; index < 250 && opened < 5_000; index++, opened++) one();
    if (opened >= 5_000) clearInterval(batch);
  }, 20);
}

async function largeBodies(): Promise<void> {
  const file = "A".repeat(39 * 1024 * 1024 - 200);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "create_upload", arguments: { data_type: "fit", file } },
  });
  const loop = async (): Promise<void> => {
    while (!stopping) {
      counts.requests += 1;
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body,
        });
        await answer.arrayBuffer();
        counts.answers += 1;
        counts.bytesSent += body.length;
      } catch {
        counts.errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: 10 }, loop));
}

process.once("SIGTERM", () => {
  stopping = true;
  process.stdout.write(`${JSON.stringify(counts)}\n`, () => process.exit(0));
});

switch (kind) {
  case "endless-bodies":
    endlessBodies();
    break;
  case "brute-force":
    void bruteForce();
    break;
  case "slow-connections":
    slowConnections();
    break;
  case "large-bodies":
    void largeBodies();
    break;
  default:
    process.stderr.write(`unknown kind ${kind}\n`);
    process.exit(2);
}
process.stderr.write("ready\n");
