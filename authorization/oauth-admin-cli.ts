/**
 * `npm run oauth-admin -- <command>`: the operator's view of OAuth mode's store (the same settings as the
 * server: FITNESS_OAUTH_DIR, or MCP_OAUTH_TABLE with MCP_SIGNING_KEY_SECRET and AWS_REGION; MCP_ATHLETES;
 * the Strava application for revoking there):
 *
 * - `athletes`: the athletes whose Strava tokens are stored, whether each is admitted, and for one that is
 *   not, or whose grants all ended as a precaution, since when and when their tokens go;
 * - `forget <athlete id>`: now, not after the grace period: their grants end, their Strava grant is revoked
 *   at Strava, and everything stored for them is deleted;
 * - `webhook`: the address Strava's push subscription must post to (PUBLIC_URL and the webhook's secret path,
 *   strava/webhook-path.ts), printed for the operator who asked and nowhere else, with the commands that
 *   point the application's subscription at it;
 * - `reset-owner`: a loopback server without MCP_ATHLETES serves the first athlete who signed in; this ends
 *   that athlete's grants and frees the ownership for the next one to sign in (their Strava tokens then
 *   wait out the grace period like any athlete no longer admitted).
 */
import { silentLogger } from "../common/logger.ts";
import { messageOf } from "../common/named-error.ts";
import { defaultHost, defaultServerAddress } from "../common/settings/server-variables.ts";
import { defaultStoreTimeoutMs } from "../credentials/store-deadline.ts";
import { disconnectAthlete, type DisconnectNeeds } from "./disconnect-athlete.ts";
import { unadmittedGraceMs } from "./grace-period.ts";
import { revokeGrantsOf } from "./grant-endings.ts";
import { oauthSettingsFromEnv } from "./oauth-settings.ts";
import { openAuthorizationStoresFromEnv } from "./start-oauth-mode.ts";
import { storeSignal, type AuthorizationStores } from "./stores/authorization-stores.ts";
import { stravaApplicationFromEnv } from "./strava/strava-application.ts";
import { stravaWebhookPath } from "./strava/webhook-path.ts";

const usage = `Usage: npm run oauth-admin -- <command>

Commands (on the store the server uses: FITNESS_OAUTH_DIR, or MCP_OAUTH_TABLE):
  athletes              the athletes whose Strava tokens are stored, and who is admitted
  forget <athlete id>   end their grants, revoke their Strava grant and delete their data now
  webhook               the address Strava's push subscription must post to (PUBLIC_URL), and how to set it
  reset-owner           free the ownership of a server without MCP_ATHLETES (loopback only)`;

/** The Strava application the settings name (undefined on the built-in sandbox): what `forget` revokes at and `webhook` names. */
type Application = Awaited<ReturnType<typeof stravaApplicationFromEnv>>;

async function main(args: string[]): Promise<number> {
  const [command, argument] = args;
  const refused = refusedCommand(command, argument);
  if (refused !== undefined) return refused;
  const env = process.env;
  const settings = oauthSettingsFromEnv(env, defaultHost);
  const application = await stravaApplicationFromEnv(env, settings);
  const stores = await openAuthorizationStoresFromEnv(
    env,
    { client_id: application?.strava.clientId ?? "", client_secret: application?.strava.clientSecret ?? "" },
    defaultStoreTimeoutMs,
  );
  console.log(`OAuth store: ${stores.description}`);
  if (command === "athletes") return listAthletes(stores, settings.admittedAthletes);
  if (command === "webhook") return printWebhook(stores, settings.publicUrl, application);
  if (command === "forget") return forget(argument as string, stores, application);
  return resetOwner(stores, settings.admittedAthletes);
}

/** The exit code for a missing, unknown or incomplete command (after saying why), or undefined when it can run. */
function refusedCommand(command: string | undefined, argument: string | undefined): number | undefined {
  if (command === undefined || command === "--help" || command === "-h") {
    console.log(usage);
    return command === undefined ? 2 : 0;
  }
  if (!["athletes", "forget", "webhook", "reset-owner"].includes(command)) {
    console.error(`Unknown command "${command}".\n\n${usage}`);
    return 2;
  }
  if (command === "forget" && !/^\d{1,20}$/.test(argument ?? "")) {
    console.error(
      `forget needs the Strava athlete id to forget (a number, as \`npm run oauth-admin -- athletes\` lists them); got "${argument ?? ""}".`,
    );
    return 2;
  }
  return undefined;
}

/** `athletes`: each athlete whose Strava tokens are stored, whether admitted, and when their tokens go if not. */
async function listAthletes(stores: AuthorizationStores, listed: string[] | undefined): Promise<number> {
  const signal = (): AbortSignal => storeSignal(defaultStoreTimeoutMs);
  const stored = await stores.athletes.storedAthletes(signal());
  if (stored.length === 0) console.log("No athlete's Strava tokens are stored.");
  const owner = listed === undefined ? await stores.athletes.owner(signal()) : undefined;
  for (const athlete of stored) {
    const admitted = listed?.includes(athlete.athleteId) ?? owner === athlete.athleteId;
    const grantCount = (await stores.grants.grantsOf(athlete.athleteId, signal())).length;
    const ended = athlete.grantsEndedAtMs;
    const state = admitted
      ? `admitted${listed === undefined ? " (the owner)" : ""}, ${grantCount} grant${grantCount === 1 ? "" : "s"}` +
        (grantCount === 0 && ended !== undefined
          ? `; grants ended as a precaution at ${iso(ended)}: tokens revoked and deleted after ${iso(ended + unadmittedGraceMs)} unless they sign in again`
          : "")
      : athlete.unadmittedSinceMs === undefined
        ? "not admitted (the server revokes their grants and starts the grace period at its next start)"
        : `not admitted since ${iso(athlete.unadmittedSinceMs)}; tokens revoked and deleted after ${iso(athlete.unadmittedSinceMs + unadmittedGraceMs)}`;
    console.log(`  ${athlete.athleteId}  ${state}`);
  }
  return 0;
}

/** `webhook`: the address Strava's push subscription must post to, for the operator who asked. */
async function printWebhook(stores: AuthorizationStores, publicUrl: string | undefined, application: Application): Promise<number> {
  const issuer = publicUrl ?? `http://${defaultServerAddress}`;
  console.log(
    webhookInstructions({
      callbackUrl: `${issuer}${stravaWebhookPath(await stores.signingKey.signingKey(storeSignal(defaultStoreTimeoutMs)))}`,
      publicUrlSet: publicUrl !== undefined,
      application: application && { apiBase: application.settings.apiBase, clientId: application.strava.clientId },
    }),
  );
  return 0;
}

/** `forget <athlete id>`: their grants end, their Strava grant is revoked (when there is an application), and their data is deleted now. */
async function forget(athleteId: string, stores: AuthorizationStores, application: Application): Promise<number> {
  const signal = (): AbortSignal => storeSignal(defaultStoreTimeoutMs);
  const disconnection: DisconnectNeeds = {
    stores,
    athleteCredentials: (athlete) => stores.athleteCredentials(athlete),
    strava: application?.strava as NonNullable<Application>["strava"],
    logger: silentLogger,
    onAthleteDeleted: () => {},
    storeTimeoutMs: defaultStoreTimeoutMs,
  };
  if (!(await stores.athletes.hasAthlete(athleteId, signal())) && (await stores.grants.grantsOf(athleteId, signal())).length === 0) {
    console.error(`Nothing is stored for athlete ${athleteId}: see \`npm run oauth-admin -- athletes\`.`);
    return 1;
  }
  if (application === undefined) console.log("No Strava application is set (the server runs on the sandbox): nothing to revoke at Strava.");
  await disconnectAthlete(athleteId, "the operator forgot them", disconnection, { revokeAtStrava: application !== undefined });
  console.log(`Athlete ${athleteId}: grants ended${application ? ", Strava grant revoked" : ""}, everything stored deleted.`);
  return 0;
}

async function resetOwner(stores: AuthorizationStores, listed: string[] | undefined): Promise<number> {
  if (listed !== undefined) {
    console.error(
      `MCP_ATHLETES is set (${listed.join(", ")}): the server serves those athletes and has no owner. Change MCP_ATHLETES instead.`,
    );
    return 1;
  }
  const owner = await stores.athletes.owner(storeSignal(defaultStoreTimeoutMs));
  if (owner === undefined) {
    console.log("Nobody owns this server yet: the next athlete to sign in will.");
    return 0;
  }
  const ended = await revokeGrantsOf(owner, { grants: stores.grants, storeTimeoutMs: defaultStoreTimeoutMs });
  await stores.athletes.resetOwner(storeSignal(defaultStoreTimeoutMs));
  await stores.athletes.markUnadmitted(owner, Date.now(), storeSignal(defaultStoreTimeoutMs));
  console.log(
    `Athlete ${owner} no longer owns this server: ${ended} grant${ended === 1 ? "" : "s"} ended. The next athlete to sign in becomes its owner. ` +
      `Their Strava tokens are deleted after the grace period (${iso(Date.now() + unadmittedGraceMs)}), or now with: npm run oauth-admin -- forget ${owner}`,
  );
  return 0;
}

/** What `webhook` prints: the callback address, and the Strava API calls that point the push subscription at it. */
function webhookInstructions(input: {
  callbackUrl: string;
  publicUrlSet: boolean;
  application: { apiBase: string; clientId: string } | undefined;
}): string {
  const lines = [
    "Strava's push subscription must post to this address. Keep it to yourself: it is what tells Strava's events from forged ones.",
    `  ${input.callbackUrl}`,
  ];
  if (!input.publicUrlSet)
    lines.push(`(PUBLIC_URL is not set: the address above assumes the server's default, http://${defaultServerAddress}.)`);
  if (input.application === undefined) {
    lines.push(
      "No Strava application is set (STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET, or FITNESS_SECRET_NAME), so there is no subscription to set.",
    );
    return lines.join("\n");
  }
  const { apiBase, clientId } = input.application;
  lines.push(
    "To point your application's subscription at it (Strava keeps one per application): list it, delete it by the id the list shows, and create it again.",
    "With STRAVA_CLIENT_SECRET and STRAVA_WEBHOOK_VERIFY_TOKEN exported, and the server running (Strava checks the address):",
    `  curl -G ${apiBase}/push_subscriptions -d client_id=${clientId} -d client_secret="$STRAVA_CLIENT_SECRET"`,
    `  curl -X DELETE "${apiBase}/push_subscriptions/ID?client_id=${clientId}&client_secret=$STRAVA_CLIENT_SECRET"`,
    `  curl -X POST ${apiBase}/push_subscriptions -F client_id=${clientId} -F client_secret="$STRAVA_CLIENT_SECRET" -F callback_url=${input.callbackUrl} -F verify_token="$STRAVA_WEBHOOK_VERIFY_TOKEN"`,
  );
  return lines.join("\n");
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(`oauth-admin failed: ${messageOf(error)}`);
  process.exitCode = 1;
}
