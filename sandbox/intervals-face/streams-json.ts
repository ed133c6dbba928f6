/**
 * GET /activity/{id}/streams{ext}: the activity's recorded series as intervals.icu's API writes them, an array of
 * `{type, name, data, ...}` (its `ActivityStream` model), or CSV with one column per stream for `.csv`. The
 * samples are the Strava face's own (sandbox/streams.ts), so both faces show one recording. intervals.icu keeps a
 * position as two numbers: `latlng` carries latitudes in `data` and longitudes in `data2`.
 */
import type { Activity } from "../activity-model.ts";
import type { Series } from "../streams.ts";
import { intervalsStreamTypes } from "./activity-json.ts";

type StreamType = (typeof intervalsStreamTypes)[number];

/** The stream types to answer: those asked for (`types`, comma separated or repeated) that the activity has, or all. */
export function streamTypesFor(activity: Activity, asked: readonly string[]): StreamType[] {
  const recorded = intervalsStreamTypes.filter((type) => activity.recording?.streams.includes(type));
  if (asked.length === 0) return recorded;
  return recorded.filter((type) => asked.includes(type));
}

export function streamsJson(series: Series | null, types: readonly StreamType[]): string {
  if (!series) return "[]";
  const parts: string[] = [];
  for (const type of types) {
    const meta = `"name":null,"valueTypeIsArray":false,"anomalies":null,"custom":false,"allNull":false`;
    if (type === "latlng") {
      const lats = series.latlng.map((point) => point[0]).join(",");
      const lngs = series.latlng.map((point) => point[1]).join(",");
      parts.push(`{"type":"latlng",${meta},"data":[${lats}],"data2":[${lngs}]}`);
    } else {
      parts.push(`{"type":"${type}",${meta},"data":[${(series[type] as number[]).join(",")}]}`);
    }
  }
  return `[${parts.join(",")}]`;
}

export function streamsCsv(series: Series | null, types: readonly StreamType[]): string {
  if (!series) return "";
  const columns = types.flatMap((type) => (type === "latlng" ? ["lat", "lng"] : [type]));
  const lines = [columns.join(",")];
  for (let t = 0; t < series.length; t++) {
    lines.push(
      types
        .flatMap((type) =>
          type === "latlng" ? [series.latlng[t]?.[0] ?? "", series.latlng[t]?.[1] ?? ""] : [(series[type] as number[])[t] ?? ""],
        )
        .join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}
