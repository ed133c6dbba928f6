/**
 * Numbers as an athlete reads them: metric or imperial by the host's locale (the views cannot ask Strava for
 * the athlete's measurement preference: they call no tool), durations as h:mm:ss, paces as min:ss per km or
 * mile. Pure functions: no DOM.
 */

export type UnitSystem = "metric" | "imperial";

/** The regions that measure in miles and feet: the United States, Liberia, Myanmar. */
const imperialRegions = new Set(["US", "LR", "MM"]);

export function unitSystemFor(locale: string | undefined): UnitSystem {
  const region = (locale ?? "").split(/[-_]/)[1]?.toUpperCase();
  return region !== undefined && imperialRegions.has(region) ? "imperial" : "metric";
}

const metersPerMile = 1609.344;
const metersPerFoot = 0.3048;

export function distanceUnit(system: UnitSystem): string {
  return system === "imperial" ? "mi" : "km";
}

/** Meters in the system's road unit (km or mi). */
export function roadDistance(meters: number, system: UnitSystem): number {
  return meters / (system === "imperial" ? metersPerMile : 1000);
}

export function formatDistance(meters: number, system: UnitSystem): string {
  const value = roadDistance(meters, system);
  return `${value >= 1000 ? grouped(value) : value.toFixed(1)} ${distanceUnit(system)}`;
}

export function elevationUnit(system: UnitSystem): string {
  return system === "imperial" ? "ft" : "m";
}

export function elevation(meters: number, system: UnitSystem): number {
  return system === "imperial" ? meters / metersPerFoot : meters;
}

export function formatElevation(meters: number, system: UnitSystem): string {
  return `${grouped(Math.round(elevation(meters, system)))} ${elevationUnit(system)}`;
}

export function speedUnit(system: UnitSystem): string {
  return system === "imperial" ? "mph" : "km/h";
}

/** Meters per second in km/h or mph. */
export function speed(metersPerSecond: number, system: UnitSystem): number {
  return metersPerSecond * (system === "imperial" ? 3600 / metersPerMile : 3.6);
}

export function paceUnit(system: UnitSystem): string {
  return system === "imperial" ? "/mi" : "/km";
}

/** Seconds per km or mile at a speed; undefined when standing still (no pace). */
export function pace(metersPerSecond: number, system: UnitSystem): number | undefined {
  if (!(metersPerSecond > 0.5)) return undefined;
  return (system === "imperial" ? metersPerMile : 1000) / metersPerSecond;
}

/** 5:07 (min:ss). */
export function formatPace(secondsPerUnit: number): string {
  const total = Math.round(secondsPerUnit);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** 6:00:00, 45:12, 0:09 (h:mm:ss when an hour or more, else m:ss). */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** 5 h 12, 45 min: an amount of training time, short. */
export function formatHours(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")}`;
}

/** 21,600 (thousands grouped with a comma, as the rest of the views' English text). */
export function grouped(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** A number with at most `digits` decimals, trailing zeros dropped. */
export function decimal(value: number, digits: number): string {
  return Number(value.toFixed(digits)).toLocaleString("en-US", { maximumFractionDigits: digits });
}
