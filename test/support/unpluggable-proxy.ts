/**
 * A TCP proxy on loopback in front of a real server that a test can "unplug": while unplugged, new
 * connections are reset and open ones are cut, exactly what a client sees when a service goes away.
 */
import { once } from "node:events";
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface UnpluggableProxy {
  url: string;
  unplug(): void;
  plugIn(): void;
  close(): Promise<void>;
}

export async function startUnpluggableProxy(target: URL): Promise<UnpluggableProxy> {
  let plugged = true;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!plugged) {
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    open.add(client).add(upstream);
    const forget = (): void => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", forget).on("close", forget);
    upstream.on("error", forget).on("close", forget);
    client.pipe(upstream).pipe(client);
  });
  await once(server.listen(0, "127.0.0.1"), "listening");
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("proxy did not bind");
  return {
    url: `http://127.0.0.1:${address.port}`,
    unplug: () => {
      plugged = false;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    plugIn: () => {
      plugged = true;
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
