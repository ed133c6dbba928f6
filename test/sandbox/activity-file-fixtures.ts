/**
 * Small activity files for upload tests, written from scratch: a FIT file (header, file_id, session,
 * a record with a position, CRC), a GPX track and a TCX activity.
 */
import { gzipSync } from "node:zlib";

const fitEpochOffsetS = 631_065_600;

export function fitCrc(bytes: Uint8Array): number {
  const table = [
    0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401, 0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01, 0x8801, 0x4400,
  ];
  let crc = 0;
  for (const byte of bytes) {
    let tmp = table[crc & 0xf]!;
    crc = (crc >> 4) & 0x0fff;
    crc = crc ^ tmp ^ table[byte & 0xf]!;
    tmp = table[crc & 0xf]!;
    crc = (crc >> 4) & 0x0fff;
    crc = crc ^ tmp ^ table[(byte >> 4) & 0xf]!;
  }
  return crc;
}

/** A FIT activity: sport 1 = running, 2 = cycling. */
export function fitActivity(options: {
  startMs: number;
  elapsedS: number;
  distanceM: number;
  sport: number;
  lat?: number;
  lng?: number;
}): Buffer {
  const start = Math.floor(options.startMs / 1000) - fitEpochOffsetS;
  const parts: Buffer[] = [];
  const definition = (local: number, global: number, fields: Array<[number, number, number]>): Buffer => {
    const b = Buffer.alloc(6 + fields.length * 3);
    b[0] = 0x40 | local;
    b[1] = 0;
    b[2] = 0; // little endian
    b.writeUInt16LE(global, 3);
    b[5] = fields.length;
    fields.forEach(([num, size, type], i) => {
      b[6 + i * 3] = num;
      b[7 + i * 3] = size;
      b[8 + i * 3] = type;
    });
    return b;
  };
  // file_id: type (0, enum) = 4 activity, time_created (4, uint32)
  parts.push(
    definition(0, 0, [
      [0, 1, 0x00],
      [4, 4, 0x86],
    ]),
  );
  const fileId = Buffer.alloc(6);
  fileId[0] = 0;
  fileId[1] = 4;
  fileId.writeUInt32LE(start, 2);
  parts.push(fileId);
  // record: timestamp (253), position_lat (0, sint32), position_long (1, sint32), distance (5, uint32 /100)
  parts.push(
    definition(1, 20, [
      [253, 4, 0x86],
      [0, 4, 0x85],
      [1, 4, 0x85],
      [5, 4, 0x86],
    ]),
  );
  const semicircles = (deg: number): number => Math.round((deg * 2 ** 31) / 180);
  for (const [offset, fraction] of [
    [0, 0],
    [options.elapsedS, 1],
  ] as const) {
    const rec = Buffer.alloc(17);
    rec[0] = 1;
    rec.writeUInt32LE(start + offset, 1);
    rec.writeInt32LE(semicircles(options.lat ?? 40.015), 5);
    rec.writeInt32LE(semicircles(options.lng ?? -105.2705), 9);
    rec.writeUInt32LE(Math.round(options.distanceM * fraction * 100), 13);
    parts.push(rec);
  }
  // session: start_time (2), sport (5), total_elapsed_time (7, ms), total_distance (9, cm)
  parts.push(
    definition(2, 18, [
      [2, 4, 0x86],
      [5, 1, 0x00],
      [7, 4, 0x86],
      [9, 4, 0x86],
    ]),
  );
  const session = Buffer.alloc(14);
  session[0] = 2;
  session.writeUInt32LE(start, 1);
  session[5] = options.sport;
  session.writeUInt32LE(options.elapsedS * 1000, 6);
  session.writeUInt32LE(Math.round(options.distanceM * 100), 10);
  parts.push(session);

  const data = Buffer.concat(parts);
  const header = Buffer.alloc(14);
  header[0] = 14;
  header[1] = 0x20;
  header.writeUInt16LE(2132, 2);
  header.writeUInt32LE(data.length, 4);
  header.write(".FIT", 8, "latin1");
  header.writeUInt16LE(fitCrc(header.subarray(0, 12)), 12);
  const body = Buffer.concat([header, data]);
  const crc = Buffer.alloc(2);
  crc.writeUInt16LE(fitCrc(body));
  return Buffer.concat([body, crc]);
}

export function gpxTrack(options: { startMs: number; points: number; name: string; type?: string }): string {
  const points: string[] = [];
  for (let i = 0; i < options.points; i++) {
    const time = new Date(options.startMs + i * 10_000).toISOString();
    points.push(
      `<trkpt lat="${(40.015 + i * 0.0004).toFixed(6)}" lon="${(-105.27 + i * 0.0003).toFixed(6)}"><ele>1655</ele><time>${time}</time></trkpt>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>${options.name}</name><type>${options.type ?? "running"}</type><trkseg>${points.join("")}</trkseg></trk></gpx>\n`;
}

export function tcxActivity(options: { startMs: number; seconds: number; metres: number }): string {
  const start = new Date(options.startMs).toISOString();
  const end = new Date(options.startMs + options.seconds * 1000).toISOString();
  return `<?xml version="1.0" encoding="UTF-8"?>\n<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity Sport="Biking"><Id>${start}</Id><Lap StartTime="${start}"><TotalTimeSeconds>${options.seconds}</TotalTimeSeconds><DistanceMeters>${options.metres}</DistanceMeters><Track><Trackpoint><Time>${start}</Time><DistanceMeters>0</DistanceMeters></Trackpoint><Trackpoint><Time>${end}</Time><DistanceMeters>${options.metres}</DistanceMeters></Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>\n`;
}

export const gzip = (content: string | Buffer): Buffer => gzipSync(content);

/** A multipart upload body, as a client would send it. */
export function uploadForm(file: Buffer | string, filename: string, fields: Record<string, string>): FormData {
  const form = new FormData();
  form.append("file", new Blob([typeof file === "string" ? Buffer.from(file) : file]), filename);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}
