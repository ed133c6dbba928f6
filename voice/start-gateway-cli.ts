/**
 * The local voice gateway as its commands start it (`npm run voice`, and `npm run voice:offline` with Bedrock played
 * locally): settings from the environment, the authorizer, the gateway, and a few lines for the person at the
 * terminal. The client token's value is never printed: the lines say where it comes from, unless the caller names a
 * token that is no secret (the offline demo's own).
 */
import { authorizerFromEnvironment, localGatewayDefaults, startLocalGateway } from "./local-gateway.ts";
import { readHandlerSettings } from "./settings-from-env.ts";
import { messageOf } from "../common/named-error.ts";
import { isSet, readSetting } from "../common/settings/setting.ts";
import { clientTokenParameter, voiceLocalClientToken, voiceLocalPort } from "../common/settings/voice-variables.ts";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

export async function runLocalGateway(options: { clientToken?: string } = {}): Promise<void> {
  let settings;
  try {
    settings = readHandlerSettings();
  } catch (error) {
    fail(messageOf(error));
  }
  if (!isSet(process.env, voiceLocalClientToken) && !isSet(process.env, clientTokenParameter)) {
    fail(
      "No client token: set VOICE_LOCAL_CLIENT_TOKEN to a token of your choice for local use, " +
        "or CLIENT_TOKEN_PARAMETER to the SSM SecureString that holds the deployed one.",
    );
  }

  let port: number = localGatewayDefaults.port;
  try {
    port = readSetting(process.env, voiceLocalPort);
  } catch (error) {
    fail(messageOf(error));
  }

  const { authorizer, tokenSource } = authorizerFromEnvironment();
  const gateway = await startLocalGateway({ authorizer, port }).catch((error: unknown) =>
    fail(`Could not listen on ${localGatewayDefaults.host}:${port}: ${messageOf(error)} (set VOICE_LOCAL_PORT to use another port).`),
  );
  console.error(
    `Voice capture API (local) at POST ${gateway.invokeUrl}\n` +
      `  client token (send it as X-Client-Token): ${options.clientToken ?? tokenSource}\n` +
      `  model: ${settings.modelId} in ${settings.region}; time zone: ${settings.timeZone}\n` +
      `  throttle: ${localGatewayDefaults.ratePerSecond}/s, burst ${localGatewayDefaults.burst}. Ctrl-C stops.`,
  );

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void gateway.close().then(() => process.exit(0));
    });
  }
}
