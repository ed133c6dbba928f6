/**
 * The authorizer's decision: compare the X-Client-Token header with the stored token in constant time and
 * answer with an IAM policy. Every denial is a Deny policy (API Gateway then answers 403 with its explicit-deny
 * body) and one log line naming the denial type; the token itself is never logged.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from "aws-lambda";
import { secretsMatch } from "../common/digests.ts";
import type { ClientTokenSource } from "./client-token-store.ts";
import type { Logger } from "../common/logger.ts";
import { messageOf } from "../common/named-error.ts";

export const clientTokenHeader = "X-Client-Token";

export type DenialType = "missing_token" | "token_mismatch" | "store_failure";

/** After a mismatch the stored token is re-read if our copy is older than this (see ClientTokenSource). */
export const mismatchRecheckAgeMs = 5_000;

const voicePrincipalId = "voice-client";

export interface ClientTokenAuthorizerOptions {
  tokens: ClientTokenSource;
  log: Logger;
}

export type RequestAuthorizer = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

function policy(effect: "Allow" | "Deny", methodArn: string): APIGatewayAuthorizerResult {
  return {
    principalId: voicePrincipalId,
    policyDocument: { Version: "2012-10-17", Statement: [{ Action: "execute-api:Invoke", Effect: effect, Resource: methodArn }] },
  };
}

/** The header's value, whatever case the client (or a proxy) gave its name; undefined when absent or empty. */
export function clientTokenFrom(event: APIGatewayRequestAuthorizerEvent): string | undefined {
  const wanted = clientTokenHeader.toLowerCase();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (name.toLowerCase() === wanted && value) return value;
  }
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {})) {
    const value = values?.[0];
    if (name.toLowerCase() === wanted && value) return value;
  }
  return undefined;
}

export function createClientTokenAuthorizer(options: ClientTokenAuthorizerOptions): RequestAuthorizer {
  const { tokens, log } = options;
  return async (event) => {
    const { requestId, identity } = event.requestContext;
    const sourceIp = identity.sourceIp;
    const deny = (denial: DenialType, fields: Record<string, string> = {}): APIGatewayAuthorizerResult => {
      log.warn("request_denied", { denial, requestId, sourceIp, ...fields });
      return policy("Deny", event.methodArn);
    };

    const presented = clientTokenFrom(event);
    if (presented === undefined) return deny("missing_token");
    try {
      let matches = secretsMatch(presented, await tokens.current());
      if (!matches) matches = secretsMatch(presented, await tokens.refreshIfOlderThan(mismatchRecheckAgeMs));
      if (!matches) return deny("token_mismatch");
    } catch (error) {
      return deny("store_failure", {
        error: error instanceof Error ? error.name : "unknown",
        message: messageOf(error),
      });
    }
    log.info("request_allowed", { requestId, sourceIp });
    return policy("Allow", event.methodArn);
  };
}
