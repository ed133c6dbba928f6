/**
 * intervals.icu's own numbers for an activity: its training load (`icu_training_load`, from power when there
 * is power, else from heart rate: intervals.icu's default order POWER_HR_PACE), intensity, TRIMP, and the time
 * in each power and heart-rate zone counted from the streams. Power load is TSS-like (an hour at FTP is 100),
 * heart-rate load is HRSS-like (an hour at threshold heart rate is 100), so the two sit on one scale.
 */
import type { Activity } from "../activity-model.ts";
import type { Series } from "../streams.ts";
import { ftp, hrZoneTops, lthrFor, maxHeartRate, powerZoneTops, restingHeartRate, sweetSpot } from "./sport-settings.ts";

export interface ActivityLoad {
  trainingLoad: number | null;
  powerLoad: number | null;
  hrLoad: number | null;
  /** Percent (an hour-long effort at threshold is 100). */
  intensity: number | null;
  trimp: number | null;
}

/** The load of an activity; `enteredLoad` is what the athlete typed for a manual one (intervals.icu keeps it). */
export function activityLoad(activity: Activity, type: string, enteredLoad: number | null): ActivityLoad {
  const hours = activity.movingTime / 3600;
  const np = activity.deviceWatts ? activity.weightedAverageWatts : null;
  const powerLoad = np !== null && hours > 0 ? Math.round(hours * (np / ftp) ** 2 * 100) : null;
  let hrLoad: number | null = null;
  let trimp: number | null = null;
  if (activity.averageHeartrate !== null && hours > 0) {
    const reserve = Math.max(0, (activity.averageHeartrate - restingHeartRate) / (lthrFor(type) - restingHeartRate));
    hrLoad = Math.round(hours * reserve ** 2 * 100);
    const ofMax = Math.max(0, (activity.averageHeartrate - restingHeartRate) / (maxHeartRate - restingHeartRate));
    // Banister's TRIMP with the weighting for women (0.86, 1.67).
    trimp = round(hours * 60 * ofMax * 0.86 * Math.exp(1.67 * ofMax), 2);
  }
  const trainingLoad = powerLoad ?? hrLoad ?? enteredLoad;
  const intensity =
    np !== null
      ? round((np / ftp) * 100, 2)
      : trainingLoad !== null && hours > 0
        ? round(Math.sqrt(trainingLoad / (hours * 100)) * 100, 2)
        : null;
  return { trainingLoad, powerLoad, hrLoad, intensity, trimp };
}

/** Seconds moving in each heart-rate zone (zones cut at `hrZoneTops`). */
export function heartRateZoneTimes(series: Series | null): number[] | null {
  if (!series || series.heartrate.length === 0) return null;
  const times = hrZoneTops.map(() => 0);
  eachMoving(series, series.heartrate, (bpm) => {
    const zone = hrZoneTops.findIndex((top, index) => index === hrZoneTops.length - 1 || bpm < top);
    times[zone]! += 1;
  });
  return times;
}

/** Seconds moving in each power zone, Z1 to Z7, and in the sweet spot, as intervals.icu lists them. */
export function powerZoneTimes(series: Series | null): Array<{ id: string; secs: number }> | null {
  if (!series || series.watts.length === 0) return null;
  const times = powerZoneTops.map(() => 0);
  let sweet = 0;
  eachMoving(series, series.watts, (watts) => {
    const percent = (watts / ftp) * 100;
    const zone = powerZoneTops.findIndex((top, index) => index === powerZoneTops.length - 1 || percent < top);
    times[zone]! += 1;
    if (percent >= sweetSpot.min && percent < sweetSpot.max) sweet++;
  });
  return [...times.map((secs, index) => ({ id: `Z${index + 1}`, secs })), { id: "SS", secs: sweet }];
}

function eachMoving(series: Series, values: number[], count: (value: number) => void): void {
  for (let t = 0; t < values.length; t++) if (series.moving.length === 0 || series.moving[t]) count(values[t] ?? 0);
}

export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
