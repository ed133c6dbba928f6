/**
 * The pages a sign-in ends on when it cannot go on and cannot go back to the client (the link was altered or
 * expired, the state was used, another browser, too many returns from Strava): each says what happened and
 * what the person can do.
 */
import { errorPage, pageAnswer } from "../pages/pages.ts";
import { callbacksPerSource } from "./sign-in-needs.ts";

export function problemPage(status: number, title: string, message: string): Response {
  return pageAnswer(
    errorPage({
      title,
      message,
      hint: "Go back to the app you came from and start connecting again. If it keeps happening, tell the app's makers what this page says.",
    }),
    { status },
  );
}

export function expiredPage(): Response {
  return problemPage(
    400,
    "This sign-in has expired",
    "The page was open too long (15 minutes), or its link was altered, so it cannot be finished.",
  );
}

export function usedPage(): Response {
  return problemPage(
    400,
    "This sign-in was already used",
    "Strava's answer for it came back here before, so it cannot be finished again (a page reloaded or opened twice does this).",
  );
}

export function tooManyCallbacksPage(retryAfterSeconds: number): Response {
  return pageAnswer(
    errorPage({
      title: "Too many sign-ins from your network",
      message: `This server takes at most ${callbacksPerSource.limit} returns from Strava's sign-in page per quarter hour from one network, and yours has used them up.`,
      hint: `Wait ${Math.ceil(retryAfterSeconds / 60)} minutes, then start connecting again from your app.`,
    }),
    { status: 429, headers: { "retry-after": String(retryAfterSeconds) } },
  );
}

export function otherBrowserPage(): Response {
  return pageAnswer(
    errorPage({
      title: "This sign-in was started in another browser",
      message:
        "A connection must be finished in the browser it was started in (with cookies allowed for this site), so that nobody can finish it for you.",
      hint: "Start connecting again from your app, and stay in the same browser until you are sent back.",
    }),
    { status: 403 },
  );
}
