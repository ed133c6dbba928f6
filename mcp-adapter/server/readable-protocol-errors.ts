/**
 * The SDK's `Server`, with protocol-layer errors that read as well as the tools' own.
 *
 * The SDK checks each request against the protocol's schema before any handler of ours runs, and a
 * failure answers with the validator's issues as raw JSON ("Invalid tools/call request: [{\"expected\":
 * \"record\", ...}]"). Through the SDK's documented hook for subclasses (`_wrapHandler`), a request the
 * SDK refused is checked again against the same schema (`specTypeSchemas`) and answered -32602 with one
 * line per problem, naming the field; a tool call's `arguments` that are not an object get a sentence
 * of their own, since that is the mistake clients actually make. Valid requests pay nothing: the second
 * check runs only after a failure.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  specTypeSchemas,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
  type SpecTypeName,
} from "@modelcontextprotocol/server";

/** The request schema of each method this server answers. */
const requestSchemaOf: Readonly<Record<string, SpecTypeName>> = {
  initialize: "InitializeRequest",
  ping: "PingRequest",
  "tools/list": "ListToolsRequest",
  "tools/call": "CallToolRequest",
  "resources/list": "ListResourcesRequest",
  "resources/templates/list": "ListResourceTemplatesRequest",
  "resources/read": "ReadResourceRequest",
  "prompts/list": "ListPromptsRequest",
  "prompts/get": "GetPromptRequest",
};

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class ReadableErrorsServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    const schemaName = requestSchemaOf[method];
    if (schemaName === undefined) return wrapped;
    return async (request, ctx) => {
      if (method === "tools/call") checkToolArguments(request);
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        throw readableError(method, schemaName, request) ?? error;
      }
    };
  }
}

function checkToolArguments(request: JSONRPCRequest): void {
  const args = (request.params as { arguments?: unknown } | undefined)?.arguments;
  if (args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args))) return;
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid tools/call request: params.arguments must be an object of the tool's arguments by name, such as {"per_page": 5}, ` +
      `or left out; got ${args === null ? "null" : Array.isArray(args) ? "an array" : `a ${typeof args}`}.`,
  );
}

/** A -32602 naming each problem, when the request breaks the protocol's schema; undefined when it does not. */
function readableError(method: string, schemaName: SpecTypeName, request: JSONRPCRequest): ProtocolError | undefined {
  const outcome = specTypeSchemas[schemaName]["~standard"].validate(request);
  if (outcome instanceof Promise || outcome.issues === undefined) return undefined;
  const problems = outcome.issues.map((issue) => {
    const path = (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".");
    return `${path || "the request"}: ${issue.message.replace(/^Invalid input: /, "")}`;
  });
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request: ${problems.join("; ")}.`);
}
