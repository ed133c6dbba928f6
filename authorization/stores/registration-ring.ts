/**
 * The places of unused registrations (clients that registered and have not completed a grant yet): what
 * both stores decide with when a client registers, starts a sign-in or completes one. Registration needs
 * no account, so the places are few (`capacity`) and shared out by network:
 *
 * - no network holds more than its share of the places (an IPv4 /24, an IPv6 /64 or /48: 5%; an IPv6 /32:
 *   10%). A newcomer from a network at its share takes the place of that network's own oldest
 *   registration, so rotating addresses inside one network only ever evicts that network's own;
 * - a registration whose sign-in is in progress (its first `GET /authorize`, until that request expires)
 *   is not evicted: a client that registers moments before the athlete signs in (Claude, ChatGPT) is not
 *   pushed out while the athlete reads the consent page. It still counts toward its network's share, so
 *   starting sign-ins cannot pin more than that share;
 * - when every place is taken, the oldest registration not signing in of the network holding the most
 *   places goes (ties: the one whose candidate is oldest): the heaviest network pays for the flood;
 * - when nothing can go (the newcomer's network, or every place, is held by sign-ins in progress) the
 *   newcomer is refused, with when the first of those sign-ins expires.
 *
 * The index is small and bounded by `capacity` (about 70 bytes a place), so each store keeps it whole:
 * one file under a lock, or one DynamoDB item written on condition of its revision.
 */
import { sourceNetworks, type NetworkWidth } from "../../common/address-networks.ts";

export interface RingEntry {
  clientId: string;
  /** Registration order (also the client record's `unused_seq`). */
  seq: number;
  /** Where it registered from: an IPv4 address, an IPv6 /64, or "unknown" (common/address-networks.ts). */
  source: string;
  /** Epoch seconds after which the registration is gone anyway. */
  expiresAt: number;
  /** Epoch seconds until which its sign-in is in progress (it is not evicted before). */
  signInUntil?: number;
}

export interface RegistrationRing {
  /** The next registration's `seq`. */
  next: number;
  /** Oldest first. */
  entries: RingEntry[];
}

/** The share of the places one network may hold. */
export const networkShares: Record<NetworkWidth, number> = {
  "IPv4 /24": 0.05,
  "IPv6 /64": 0.05,
  "IPv6 /48": 0.05,
  "IPv6 /32": 0.1,
  unknown: 0.05,
};

/** How many of `capacity` places a network of `width` may hold (at least one). */
export function networkCap(width: NetworkWidth, capacity: number): number {
  return Math.max(1, Math.floor(capacity * networkShares[width]));
}

/** Where a newcomer went: in, with the registrations it evicted; or refused, and until when. */
export type RingPlacement =
  | { placed: true; ring: RegistrationRing; seq: number; evicted: RingEntry[] }
  | { placed: false; retryAfterSeconds: number; heldBy: { width: NetworkWidth } | "every place" };

export function placeInRing(
  ring: RegistrationRing,
  newcomer: { clientId: string; source: string; expiresAt: number },
  capacity: number,
  nowSeconds: number,
): RingPlacement {
  const entries = ring.entries.filter((entry) => entry.expiresAt > nowSeconds && entry.clientId !== newcomer.clientId);
  const networks = networksOf(entries);
  const evicted: RingEntry[] = [];
  const evict = (entry: RingEntry): void => {
    entries.splice(entries.indexOf(entry), 1);
    evicted.push(entry);
  };
  for (const { network, width } of sourceNetworks(newcomer.source)) {
    for (;;) {
      const members = entries.filter((entry) => networks.get(entry)?.includes(network));
      if (members.length < networkCap(width, capacity)) break;
      const oldest = members.find((entry) => !signingIn(entry, nowSeconds));
      if (oldest === undefined) return refused(members, nowSeconds, { width });
      evict(oldest);
    }
  }
  while (entries.length >= capacity) {
    const victim = heaviestNetworksOldest(entries, networks, nowSeconds);
    if (victim === undefined) return refused(entries, nowSeconds, "every place");
    evict(victim);
  }
  const seq = ring.next;
  entries.push({ clientId: newcomer.clientId, seq, source: newcomer.source, expiresAt: newcomer.expiresAt });
  return { placed: true, ring: { next: seq + 1, entries }, seq, evicted };
}

/**
 * The ring with the registration's sign-in marked in progress until `untilSeconds`; undefined when there
 * is nothing to change (not in the ring, or its first sign-in already started: a later one does not extend it).
 */
export function startSignInInRing(ring: RegistrationRing, clientId: string, untilSeconds: number): RegistrationRing | undefined {
  const entry = ring.entries.find((candidate) => candidate.clientId === clientId);
  if (entry === undefined || entry.signInUntil !== undefined) return undefined;
  return { next: ring.next, entries: ring.entries.map((other) => (other === entry ? { ...other, signInUntil: untilSeconds } : other)) };
}

/** The ring without the registration (it completed a grant); undefined when it was not in it. */
export function leaveRing(ring: RegistrationRing, clientId: string): RegistrationRing | undefined {
  const entries = ring.entries.filter((entry) => entry.clientId !== clientId);
  return entries.length === ring.entries.length ? undefined : { next: ring.next, entries };
}

/** How the index is stored: `{"next":N,"entries":[[client_id, seq, source, expires_at, sign_in_until or 0], ...]}`. */
export function serializeRing(ring: RegistrationRing): string {
  return JSON.stringify({
    next: ring.next,
    entries: ring.entries.map((entry) => [entry.clientId, entry.seq, entry.source, entry.expiresAt, entry.signInUntil ?? 0]),
  });
}

/** The index from its stored text; an absent or unreadable one is an empty ring (its registrations then simply expire). */
export function parseRing(text: string | undefined): RegistrationRing {
  if (text === undefined) return { next: 1, entries: [] };
  try {
    const stored = JSON.parse(text) as { next: number; entries: [string, number, string, number, number][] };
    const entries = stored.entries.map(([clientId, seq, source, expiresAt, signInUntil]) => ({
      clientId,
      seq,
      source,
      expiresAt,
      ...(signInUntil > 0 ? { signInUntil } : {}),
    }));
    return { next: stored.next, entries };
  } catch {
    return { next: 1, entries: [] };
  }
}

function signingIn(entry: RingEntry, nowSeconds: number): boolean {
  return entry.signInUntil !== undefined && entry.signInUntil > nowSeconds;
}

/** The networks of each source seen lately: the places change by one registration at a time, their sources hardly. */
const networksBySource = new Map<string, string[]>();

function networksOf(entries: RingEntry[]): Map<RingEntry, string[]> {
  if (networksBySource.size > 4 * 1_024) networksBySource.clear();
  const networks = new Map<RingEntry, string[]>();
  for (const entry of entries) {
    let list = networksBySource.get(entry.source);
    if (list === undefined) {
      list = sourceNetworks(entry.source).map(({ network }) => network);
      networksBySource.set(entry.source, list);
    }
    networks.set(entry, list);
  }
  return networks;
}

/** The oldest registration not signing in of the network holding the most places (ties: the oldest such). */
function heaviestNetworksOldest(entries: RingEntry[], networks: Map<RingEntry, string[]>, nowSeconds: number): RingEntry | undefined {
  const held = new Map<string, { places: number; oldest: RingEntry | undefined }>();
  for (const entry of entries) {
    for (const network of networks.get(entry) ?? []) {
      const tally = held.get(network) ?? { places: 0, oldest: undefined };
      tally.places += 1;
      if (tally.oldest === undefined && !signingIn(entry, nowSeconds)) tally.oldest = entry;
      held.set(network, tally);
    }
  }
  let best: { places: number; oldest: RingEntry } | undefined;
  for (const { places, oldest } of held.values()) {
    if (oldest === undefined) continue;
    if (best === undefined || places > best.places || (places === best.places && oldest.seq < best.oldest.seq)) best = { places, oldest };
  }
  return best?.oldest;
}

function refused(holders: RingEntry[], nowSeconds: number, heldBy: { width: NetworkWidth } | "every place"): RingPlacement {
  const firstFree = Math.min(...holders.map((entry) => entry.signInUntil ?? nowSeconds + 1));
  return { placed: false, retryAfterSeconds: Math.max(1, firstFree - nowSeconds), heldBy };
}
