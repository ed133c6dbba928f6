/**
 * What `npm run sandbox` prints once it listens: where the sandbox is, its athlete and credentials, and the lines that
 * point the tools at it as Strava (export lines, or the authorize command into a token file) and as intervals.icu.
 * A function of the running sandbox and the folder for throwaway token files, so a test can check in its own process
 * that every printed line works.
 */
import { join } from "node:path";
import { shellQuote } from "../common/shell-quote.ts";
import { seedAthlete } from "./seed-athlete.ts";
import type { RunningSandbox } from "./server.ts";

/** The banner's lines; `temporaryFolder` holds the token files a sandbox grant is kept in (it is throwaway). */
export function sandboxBanner(sandbox: RunningSandbox, temporaryFolder: string): string[] {
  return [...aboutTheSandbox(sandbox), "", ...asStrava(sandbox, temporaryFolder), "", ...asIntervals(sandbox), "Ctrl-C to stop."];
}

function aboutTheSandbox(sandbox: RunningSandbox): string[] {
  const a = seedAthlete;
  return [
    `Strava sandbox listening on ${sandbox.baseUrl}`,
    `  API base       ${sandbox.apiBase}`,
    `  Token URL      ${sandbox.tokenUrl}`,
    `  Authorize URL  ${sandbox.authorizeUrl}`,
    `  Athlete        ${a.firstname} ${a.lastname} (id ${a.id}), ${a.city}, ${a.state}: ${sandbox.activityCount()} activities over the last year; club id ${sandbox.clubId}`,
    ...(sandbox.secondAthleteId === undefined
      ? []
      : [
          `  Second athlete Jonas Berg (id ${sandbox.secondAthleteId}); sign in as him: curl -X POST ${sandbox.baseUrl}/_sandbox/sign-in -d '{"athlete_id":${sandbox.secondAthleteId}}'`,
        ]),
    `  Client id      ${sandbox.clientId}`,
    `  Client secret  ${sandbox.clientSecret}`,
    `  Refresh token  ${sandbox.refreshToken()}`,
  ];
}

function asStrava(sandbox: RunningSandbox, temporaryFolder: string): string[] {
  // Beside the temporary files, not in the checkout or at the MCP server's default token file: a sandbox grant is throwaway.
  const tokenFile = shellQuote(join(temporaryFolder, "sandbox-tokens.json"));
  // The export lines' server keeps its rotations in a scratch file too: without FITNESS_TOKEN_FILE it would write the
  // sandbox's tokens into the default token file, the one the README gives for a real account.
  const envTokenFile = shellQuote(join(temporaryFolder, "sandbox-env-tokens.json"));
  return [
    "Point the tools at it as Strava (in another shell):",
    `  export STRAVA_API_BASE=${sandbox.apiBase}`,
    `  export STRAVA_TOKEN_URL=${sandbox.tokenUrl}`,
    `  export STRAVA_CLIENT_ID=${sandbox.clientId}`,
    `  export STRAVA_CLIENT_SECRET=${sandbox.clientSecret}`,
    `  export STRAVA_REFRESH_TOKEN=${sandbox.refreshToken()}`,
    `  export FITNESS_TOKEN_FILE=${envTokenFile}`,
    "",
    "Or, as with Strava: authorize its athlete into a token file, serve that file, and revoke the grant (this authorize",
    "page approves at once: open the URL the first command prints, or curl -sL it):",
    `  STRAVA_AUTHORIZE_URL=${sandbox.authorizeUrl} STRAVA_TOKEN_URL=${sandbox.tokenUrl} STRAVA_CLIENT_ID=${sandbox.clientId} STRAVA_CLIENT_SECRET=${sandbox.clientSecret} npm run authorize -- --store file --token-file ${tokenFile}`,
    `  STRAVA_API_BASE=${sandbox.apiBase} STRAVA_TOKEN_URL=${sandbox.tokenUrl} FITNESS_TOKEN_FILE=${tokenFile} npm start`,
    `  STRAVA_TOKEN_URL=${sandbox.tokenUrl} npm run authorize -- --revoke --store file --token-file ${tokenFile}`,
    "",
    "Refresh tokens rotate on every refresh, as Strava's may: a client must keep the new one.",
    `The current one: curl ${sandbox.baseUrl}/_sandbox/credentials   (state lives in memory; a restart starts over).`,
  ];
}

function asIntervals(sandbox: RunningSandbox): string[] {
  return [
    `The same athlete as intervals.icu's API: ${sandbox.intervalsApiBase}`,
    `  API key        ${sandbox.intervalsApiKey} (HTTP Basic, user name API_KEY; athlete ${sandbox.intervalsAthleteId}, or 0)`,
    "Point the tools at it as intervals.icu instead (in another shell, without the STRAVA_ lines above: a server serves one log):",
    `  export INTERVALS_API_BASE=${sandbox.intervalsApiBase}`,
    `  export INTERVALS_API_KEY=${sandbox.intervalsApiKey}`,
    `  curl -u API_KEY:${sandbox.intervalsApiKey} ${sandbox.intervalsApiBase}/athlete/0`,
  ];
}
