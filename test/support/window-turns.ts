/**
 * Counting windows that turn on the wall clock, for tests that fill one and then expect a refusal from code that
 * takes no clock of the test's (a child process, OAuth mode as `npm start` puts it together, the plugin as the host
 * registers it): Strava's 15-minute and daily windows, OAuth mode's per-source counts (registrations an hour, sign-in
 * callbacks a quarter hour, webhook events a minute). Each window starts at a multiple of its length since the epoch,
 * so a test that starts just before a turn sees its counts start again halfway, and the refusal it waits for never
 * comes. `clearOfWindowTurn` waits out a turn that is too near.
 */

export const minuteMs = 60_000;
/** Strava's short window; midnight UTC, where the daily one turns, is a quarter hour too. */
export const quarterHourMs = 15 * minuteMs;
export const hourMs = 60 * minuteMs;

/**
 * Returns once at least `budgetMs` are left before the clock next turns a `windowMs` window, waiting past the
 * turn when it is nearer. `budgetMs` is the most the counting may take: a test's timeout makes the test
 * deterministic (no turn can fall inside it); a shorter budget costs fewer waits, for counting that takes a
 * fraction of it.
 */
export async function clearOfWindowTurn(windowMs: number, budgetMs: number): Promise<void> {
  const leftMs = windowMs - (Date.now() % windowMs);
  if (leftMs < budgetMs) await new Promise((resolve) => setTimeout(resolve, leftMs + 1_000));
}
