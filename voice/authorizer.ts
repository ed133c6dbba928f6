/**
 * Lambda entry point of the REST API's REQUEST authorizer: X-Client-Token against the SSM SecureString named
 * by CLIENT_TOKEN_PARAMETER. The SSM client is built on the first request (tests set the environment first).
 * A missing setting is a store failure: the request is denied and the log says which setting to fix.
 */
import { SSMClient } from "@aws-sdk/client-ssm";
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from "aws-lambda";
import { synchronousStderrLogger } from "../common/logger.ts";
import { createClientTokenAuthorizer } from "./client-token-authorizer.ts";
import { SsmClientTokenStore, type ClientTokenSource } from "./client-token-store.ts";
import { readAuthorizerSettings } from "./settings-from-env.ts";

let store: SsmClientTokenStore | undefined;

function ssmStore(): SsmClientTokenStore {
  if (!store) {
    const settings = readAuthorizerSettings();
    store = new SsmClientTokenStore({
      client: new SSMClient({ region: settings.region }),
      parameterName: settings.clientTokenParameter,
    });
  }
  return store;
}

const tokens: ClientTokenSource = {
  current: async () => ssmStore().current(),
  refreshIfOlderThan: async (minAgeMs) => ssmStore().refreshIfOlderThan(minAgeMs),
};

const authorize = createClientTokenAuthorizer({ tokens, log: synchronousStderrLogger("voice-authorizer") });

export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  return authorize(event);
}
