/**
 * The raw effort of an activity from each signal it may carry, before calibration puts it on the athlete's
 * Relative Effort scale (load-calibration.ts). Sources in docs/reference/training-load.md:
 * - power: Coggan's Training Stress Score, moving hours x (normalised power / FTP)^2 x 100, with Strava's
 *   `weighted_average_watts` as the normalised power;
 * - heart rate: Strava's Relative Effort counts each second at a rate per heart-rate zone (Aime's
 *   reverse-engineered rates); with only the average at hand, the average is placed between the athlete's zone
 *   bounds and the rate is read off a line through the zones' middles, so a beat more never jumps a step.
 * Pure functions of the activity and the athlete's FTP or zones.
 */

/** Relative Effort points per hour in heart-rate zones 1 to 5 (Aime, 2017). */
export const zonePointsPerHour: readonly number[] = [25, 60, 115, 250, 300];

/** One of the athlete's heart-rate zones as Strava gives it (`max` -1: no upper bound). */
export interface HeartRateZone {
  min: number;
  max: number;
}

/** Training Stress Score: hours at (weighted power / FTP) squared, 100 for an hour at FTP. */
export function powerPoints(movingSeconds: number, weightedWatts: number, ftp: number): number {
  const intensity = weightedWatts / ftp;
  return (Math.max(0, movingSeconds) / 3600) * intensity * intensity * 100;
}

/** Hours at the Relative Effort rate of `heartrate` among `zones` (ascending, as Strava lists them). */
export function heartRatePoints(movingSeconds: number, heartrate: number, zones: readonly HeartRateZone[]): number {
  return (Math.max(0, movingSeconds) / 3600) * heartRatePointsPerHour(heartrate, zones);
}

/**
 * The rate at `heartrate`: its place among the zones (zone index plus how far into the zone it is, 0 to 1; the
 * open top zone as wide as the one below), then a straight line between the rates of neighbouring zones' middles,
 * level below the first zone's middle and above the last's.
 */
export function heartRatePointsPerHour(heartrate: number, zones: readonly HeartRateZone[]): number {
  const rates = zonePointsPerHour;
  const place = zonePlace(heartrate, zones) - 0.5;
  const top = Math.min(zones.length, rates.length) - 1;
  if (place <= 0) return rates[0]!;
  if (place >= top) return rates[top]!;
  const lower = Math.floor(place);
  return rates[lower]! + (rates[lower + 1]! - rates[lower]!) * (place - lower);
}

/** Zone index plus the fraction of that zone below `heartrate`. */
function zonePlace(heartrate: number, zones: readonly HeartRateZone[]): number {
  for (let index = 0; index < zones.length; index++) {
    const zone = zones[index]!;
    const open = zone.max === -1;
    if (!open && heartrate >= zone.max && index < zones.length - 1) continue;
    const below = zones[index - 1];
    const width = open ? (below ? below.max - below.min : 0) : zone.max - zone.min;
    const fraction = width > 0 ? (heartrate - zone.min) / width : 0;
    return index + Math.min(1, Math.max(0, fraction));
  }
  return 0;
}
