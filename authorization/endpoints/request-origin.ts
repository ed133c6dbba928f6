/**
 * The address a request came from, for the counts anonymous callers are held to (registrations,
 * webhook events): the connection's own address, unless the operator says a proxy in front of the
 * server names the client in a header (MCP_CLIENT_ADDRESS_HEADER, such as `x-forwarded-for`). Then the
 * last address in that header counts: the one the operator's own proxy appended, which a client cannot
 * forge (the addresses before it are whatever the client sent).
 */
import { isIP } from "node:net";

/** Where a request came from, as the edge that received it knows. */
export interface RequestOrigin {
  /** The client's address: the connection's, or the one a trusted proxy named (MCP_CLIENT_ADDRESS_HEADER). */
  address: string | undefined;
}

export function requestOrigin(
  header: string | undefined,
  headerValue: (name: string) => string | null | undefined,
  connectionAddress: string | undefined,
): RequestOrigin {
  if (header !== undefined) {
    const named = headerValue(header)?.split(",").at(-1)?.trim();
    if (named !== undefined && isIP(named) !== 0) return { address: named };
  }
  return { address: connectionAddress };
}
