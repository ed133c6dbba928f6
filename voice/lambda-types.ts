// The slices of the API Gateway (REST) and Lambda shapes this service reads and returns. Declared here rather
// than taken from @types/aws-lambda: a dozen fields do not justify a dependency.

/** Event sent to a REST API `REQUEST` authorizer. */
export interface RequestAuthorizerEvent {
  type: "REQUEST";
  methodArn: string;
  resource?: string;
  path?: string;
  httpMethod?: string;
  headers?: Record<string, string | undefined> | null;
  multiValueHeaders?: Record<string, string[] | undefined> | null;
  requestContext?: { requestId?: string; identity?: { sourceIp?: string } };
}

/** An IAM policy answer; API Gateway turns `Deny` into 403 with its explicit-deny body. */
export interface AuthorizerResult {
  principalId: string;
  policyDocument: {
    Version: "2012-10-17";
    Statement: Array<{ Action: "execute-api:Invoke"; Effect: "Allow" | "Deny"; Resource: string }>;
  };
}

/** Lambda proxy integration request (REST API), the fields the handler uses. */
export interface ProxyEvent {
  body: string | null;
  isBase64Encoded?: boolean;
  headers?: Record<string, string | undefined> | null;
  requestContext?: { requestId?: string };
}

/** Lambda proxy integration response. */
export interface ProxyResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** The Lambda context methods the handler uses; optional so tests and the local gateway can pass less. */
export interface LambdaContext {
  awsRequestId?: string;
  getRemainingTimeInMillis?: () => number;
}
