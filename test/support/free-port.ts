/** A loopback port that was free a moment ago (bound once, then released), for servers that need a fixed port up front. */
import { once } from "node:events";
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  const server = createServer();
  await once(server.listen(0, "127.0.0.1"), "listening");
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || address === null) throw new Error("could not find a free loopback port");
  return address.port;
}
