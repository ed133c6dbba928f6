/**
 * Reading uploaded activity files (FIT, TCX, GPX, each optionally gzipped) far enough to create the
 * activity: sport, start time, duration, distance, start position and name. A file that cannot be read
 * gives an error message for the upload, as Strava's processing does.
 */
import { gunzipSync } from "node:zlib";

export const uploadDataTypes = ["fit", "fit.gz", "tcx", "tcx.gz", "gpx", "gpx.gz"] as const;
export type UploadDataType = (typeof uploadDataTypes)[number];

export interface ActivityFileSummary {
  sportType: string;
  startMs: number;
  elapsed: number;
  distance: number | null;
  start: [number, number] | null;
  name: string | null;
}

export type ReadResult = { ok: true; summary: ActivityFileSummary; content: Buffer } | { ok: false; error: string };

export function readActivityFile(dataType: UploadDataType, bytes: Buffer): ReadResult {
  let content = bytes;
  if (dataType.endsWith(".gz")) {
    try {
      content = gunzipSync(bytes);
    } catch {
      return { ok: false, error: "Unable to unzip the file: it is not valid gzip data." };
    }
  }
  try {
    if (dataType.startsWith("fit")) return readFit(content);
    const text = content.toString("utf8");
    return dataType.startsWith("tcx") ? readTcx(text, content) : readGpx(text, content);
  } catch (error) {
    return { ok: false, error: `Improperly formatted data: ${(error as Error).message}` };
  }
}

// ---- FIT -----------------------------------------------------------------------------------------

const fitEpochOffsetS = 631_065_600; // 1989-12-31T00:00:00Z
const fitSports: Record<number, string> = {
  0: "Workout",
  1: "Run",
  2: "Ride",
  4: "Workout",
  5: "Swim",
  10: "Workout",
  11: "Walk",
  17: "Hike",
};

const crcTable = [
  0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401, 0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01, 0x8801, 0x4400,
];

export function fitCrc(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    let tmp = crcTable[crc & 0xf]!;
    crc = (crc >> 4) & 0x0fff;
    crc = crc ^ tmp ^ crcTable[byte & 0xf]!;
    tmp = crcTable[crc & 0xf]!;
    crc = (crc >> 4) & 0x0fff;
    crc = crc ^ tmp ^ crcTable[(byte >> 4) & 0xf]!;
  }
  return crc;
}

interface FitDefinition {
  global: number;
  littleEndian: boolean;
  fields: Array<{ num: number; size: number }>;
  developerBytes: number;
}

/** What the messages of a FIT file tell of its activity, gathered as they are read. */
interface FitFacts {
  firstTimestamp: number | null;
  lastTimestamp: number | null;
  sessionStart: number | null;
  sessionElapsed: number | null;
  sessionDistance: number | null;
  recordDistance: number | null;
  sport: number | null;
  start: [number, number] | null;
}

function readFit(bytes: Buffer): ReadResult {
  const headerSize = bytes[0] ?? 0;
  if (bytes.length < 14 || (headerSize !== 12 && headerSize !== 14) || bytes.toString("latin1", 8, 12) !== ".FIT") {
    return { ok: false, error: "Unrecognized file type: this is not a FIT file." };
  }
  const dataSize = bytes.readUInt32LE(4);
  const end = headerSize + dataSize;
  if (end + 2 > bytes.length) return { ok: false, error: "The FIT file is truncated." };
  if (fitCrc(bytes, 0, end) !== bytes.readUInt16LE(end)) return { ok: false, error: "The FIT file is corrupt (CRC mismatch)." };
  const facts = readFitMessages(bytes, headerSize, end);
  const startS = facts.sessionStart ?? facts.firstTimestamp;
  if (startS === null) return { ok: false, error: "Time information is missing from file." };
  const elapsed = facts.sessionElapsed ?? (facts.lastTimestamp !== null ? facts.lastTimestamp - startS : 0);
  return {
    ok: true,
    content: bytes,
    summary: {
      sportType: fitSports[facts.sport ?? 0] ?? "Workout",
      startMs: (startS + fitEpochOffsetS) * 1000,
      elapsed: Math.max(1, Math.round(elapsed)),
      distance: facts.sessionDistance ?? facts.recordDistance,
      start: facts.start,
      name: null,
    },
  };
}

/** Walks the records between the header and the CRC: definitions are kept by local type, data messages read by them. */
function readFitMessages(bytes: Buffer, headerSize: number, end: number): FitFacts {
  const facts: FitFacts = {
    firstTimestamp: null,
    lastTimestamp: null,
    sessionStart: null,
    sessionElapsed: null,
    sessionDistance: null,
    recordDistance: null,
    sport: null,
    start: null,
  };
  const definitions = new Map<number, FitDefinition>();
  let pos = headerSize;
  while (pos < end) {
    const header = bytes[pos++]!;
    const compressed = (header & 0x80) !== 0;
    if (!compressed && (header & 0x40) !== 0) {
      pos = readFitDefinition(bytes, pos, header, definitions);
      continue;
    }
    const local = compressed ? (header >> 5) & 0x03 : header & 0x0f;
    const definition = definitions.get(local);
    if (!definition) throw new Error(`data message for undefined local type ${local}`);
    const values = new Map<number, number>();
    for (const field of definition.fields) {
      if (field.size === 1) values.set(field.num, bytes[pos]!);
      else if (field.size === 2) values.set(field.num, definition.littleEndian ? bytes.readUInt16LE(pos) : bytes.readUInt16BE(pos));
      else if (field.size === 4) values.set(field.num, definition.littleEndian ? bytes.readUInt32LE(pos) : bytes.readUInt32BE(pos));
      pos += field.size;
    }
    pos += definition.developerBytes;
    if (pos > end) throw new Error("message runs past the end of the data");
    noteFitMessage(facts, definition.global, values);
  }
  return facts;
}

/** A definition message at `pos` (just after its header byte) into `definitions`; returns where the next record starts. */
function readFitDefinition(bytes: Buffer, pos: number, header: number, definitions: Map<number, FitDefinition>): number {
  const local = header & 0x0f;
  const littleEndian = bytes[pos + 1] === 0;
  const global = littleEndian ? bytes.readUInt16LE(pos + 2) : bytes.readUInt16BE(pos + 2);
  const count = bytes[pos + 4]!;
  pos += 5;
  const fields: Array<{ num: number; size: number }> = [];
  for (let i = 0; i < count; i++, pos += 3) fields.push({ num: bytes[pos]!, size: bytes[pos + 1]! });
  let developerBytes = 0;
  if ((header & 0x20) !== 0) {
    const devCount = bytes[pos++]!;
    for (let i = 0; i < devCount; i++, pos += 3) developerBytes += bytes[pos + 1]!;
  }
  definitions.set(local, { global, littleEndian, fields, developerBytes });
  return pos;
}

/** What one data message adds: timestamps from any, and the session (18), file id (0) and record (20) fields used. */
function noteFitMessage(facts: FitFacts, global: number, values: Map<number, number>): void {
  const timestamp = values.get(253);
  if (timestamp !== undefined && timestamp !== 0xffffffff) {
    facts.firstTimestamp = facts.firstTimestamp === null ? timestamp : Math.min(facts.firstTimestamp, timestamp);
    facts.lastTimestamp = facts.lastTimestamp === null ? timestamp : Math.max(facts.lastTimestamp, timestamp);
  }
  if (global === 18) {
    facts.sessionStart = valid32(values.get(2)) ?? facts.sessionStart;
    const elapsed = valid32(values.get(7));
    if (elapsed !== null) facts.sessionElapsed = elapsed / 1000;
    const distance = valid32(values.get(9));
    if (distance !== null) facts.sessionDistance = distance / 100;
    const s = values.get(5);
    if (s !== undefined && s !== 0xff) facts.sport = s;
  } else if (global === 0 && facts.firstTimestamp === null) {
    const created = valid32(values.get(4));
    if (created !== null) facts.firstTimestamp = created;
  } else if (global === 20) {
    const lat = values.get(0);
    const lng = values.get(1);
    if (facts.start === null && lat !== undefined && lng !== undefined && lat !== 0x7fffffff && lng !== 0x7fffffff) {
      facts.start = [semicircles(lat), semicircles(lng)];
    }
    const distance = valid32(values.get(5));
    if (distance !== null) facts.recordDistance = distance / 100;
  }
}

function valid32(value: number | undefined): number | null {
  return value === undefined || value === 0xffffffff ? null : value;
}

function semicircles(value: number): number {
  const signed = value > 0x7fffffff ? value - 0x100000000 : value;
  return Math.round(((signed * 180) / 2 ** 31) * 1e6) / 1e6;
}

// ---- TCX and GPX ----------------------------------------------------------------------------------

const tcxSports: Record<string, string> = { Running: "Run", Biking: "Ride", Other: "Workout" };
const gpxTypes: Record<string, string> = {
  running: "Run",
  cycling: "Ride",
  biking: "Ride",
  swimming: "Swim",
  hiking: "Hike",
  walking: "Walk",
  "1": "Ride",
  "9": "Run",
};

function readTcx(text: string, content: Buffer): ReadResult {
  if (!/<TrainingCenterDatabase[\s>]/.test(text)) return { ok: false, error: "Unrecognized file type: this is not a TCX file." };
  const times = [...text.matchAll(/<Time>([^<]+)<\/Time>/g)].map((m) => Date.parse(m[1]!)).filter((t) => Number.isFinite(t));
  const idTime = Date.parse(/<Id>([^<]+)<\/Id>/.exec(text)?.[1] ?? "");
  const startMs = Number.isFinite(idTime) ? idTime : times[0];
  if (startMs === undefined || !Number.isFinite(startMs)) return { ok: false, error: "Time information is missing from file." };
  const lapSeconds = [...text.matchAll(/<TotalTimeSeconds>([^<]+)<\/TotalTimeSeconds>/g)].reduce((s, m) => s + Number(m[1]), 0);
  const elapsed = times.length > 1 ? (maxOf(times) - minOf(times)) / 1000 : lapSeconds;
  const distances = [...text.matchAll(/<DistanceMeters>([^<]+)<\/DistanceMeters>/g)]
    .map((m) => Number(m[1]))
    .filter((d) => Number.isFinite(d));
  const lat = /<LatitudeDegrees>([^<]+)<\/LatitudeDegrees>/.exec(text)?.[1];
  const lng = /<LongitudeDegrees>([^<]+)<\/LongitudeDegrees>/.exec(text)?.[1];
  const sport = /<Activity\s+Sport="([^"]+)"/.exec(text)?.[1] ?? "Other";
  return {
    ok: true,
    content,
    summary: {
      sportType: tcxSports[sport] ?? "Workout",
      startMs: Math.floor(startMs / 1000) * 1000,
      elapsed: Math.max(1, Math.round(elapsed)),
      distance: distances.length > 0 ? maxOf(distances) : null,
      start: lat && lng ? [Number(lat), Number(lng)] : null,
      name: null,
    },
  };
}

function readGpx(text: string, content: Buffer): ReadResult {
  if (!/<gpx[\s>]/.test(text)) return { ok: false, error: "Unrecognized file type: this is not a GPX file." };
  const points = [...text.matchAll(/<trkpt\s+([^>]*)>([\s\S]*?)<\/trkpt>/g)].map((m) => {
    const attrs = m[1]!;
    const lat = Number(/lat="([^"]+)"/.exec(attrs)?.[1]);
    const lon = Number(/lon="([^"]+)"/.exec(attrs)?.[1]);
    const time = Date.parse(/<time>([^<]+)<\/time>/.exec(m[2]!)?.[1] ?? "");
    return { lat, lon, time };
  });
  const timed = points.filter((p) => Number.isFinite(p.time));
  if (timed.length === 0) return { ok: false, error: "Time information is missing from file." };
  let distance = 0;
  for (let i = 1; i < points.length; i++) distance += haversine(points[i - 1]!, points[i]!);
  const first = points[0]!;
  const type = /<trk>[\s\S]*?<type>([^<]+)<\/type>/.exec(text)?.[1]?.trim().toLowerCase() ?? "";
  const name = /<trk>[\s\S]*?<name>([^<]+)<\/name>/.exec(text)?.[1]?.trim() ?? null;
  const startMs = minOf(timed.map((p) => p.time));
  return {
    ok: true,
    content,
    summary: {
      sportType: gpxTypes[type] ?? "Ride",
      startMs: Math.floor(startMs / 1000) * 1000,
      elapsed: Math.max(1, Math.round((maxOf(timed.map((p) => p.time)) - startMs) / 1000)),
      distance: Math.round(distance * 10) / 10,
      start: Number.isFinite(first.lat) && Number.isFinite(first.lon) ? [first.lat, first.lon] : null,
      name,
    },
  };
}

function haversine(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  if (![a.lat, a.lon, b.lat, b.lon].every(Number.isFinite)) return 0;
  const toRad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * toRad;
  const dLon = (b.lon - a.lon) * toRad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * toRad) * Math.cos(b.lat * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

// Loops rather than Math.max(...values): a long file has more points than a call can take arguments.
function maxOf(values: number[]): number {
  let best = -Infinity;
  for (const v of values) if (v > best) best = v;
  return best;
}

function minOf(values: number[]): number {
  let best = Infinity;
  for (const v of values) if (v < best) best = v;
  return best;
}
