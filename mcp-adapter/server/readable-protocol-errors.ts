/**
 * The SDK's `Server`, with protocol-layer errors that read as well as the tools' own.
 *
 * The SDK checks each request against the protocol's schema before any handler of ours runs, and a
 * failure answers with the validator's issues as raw JSON ("Invalid tools/call request: [{\"expected\":
 * \"record\", ...}]"). Through the SDK's documented hook for subclasses (`_wrapHandler`), a request the
 * SDK refused is checked again against the same schema (`specTypeSchemas`) and answered -32602 with one
 * line per problem, naming the field; a tool call's `arguments` that are not an object get a sentence
 * of their own, since that is the mistake clients actually make. The Skills extension's methods get the same,
 * with what each field is for. Valid requests pay nothing: the second check runs only after a failure.
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
import {
  GetSkillRequestParamsSchema,
  ListSkillsRequestParamsSchema,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from "@modelcontextprotocol/core/ext/skills";

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

/** What this file needs of a schema: Standard Schema's validate (zod's, here). */
interface ParamsSchema {
  readonly "~standard": {
    validate(value: unknown):
      | {
          readonly issues?: ReadonlyArray<{
            readonly message: string;
            readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
          }>;
        }
      | Promise<unknown>;
  };
}

/**
 * The methods of the Skills extension: the schema of their params (the SDK checks them with it and answers with the
 * validator's own words: "uri: Invalid input: expected string, received undefined"), and what each field is.
 */
const extensionParamsOf: Readonly<Record<string, { schema: ParamsSchema; fields: Record<string, string> }>> = {
  [SKILLS_GET_METHOD]: {
    schema: GetSkillRequestParamsSchema,
    fields: { uri: "the uri of a skill from skills/list, such as skill://fitness-coaching/SKILL.md" },
  },
  [SKILLS_LIST_METHOD]: { schema: ListSkillsRequestParamsSchema, fields: { cursor: "a nextCursor from an earlier skills/list" } },
};

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class ReadableErrorsServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    const schemaName = requestSchemaOf[method];
    const extension = extensionParamsOf[method];
    if (schemaName === undefined && extension === undefined) return wrapped;
    return async (request, ctx) => {
      if (method === "tools/call") checkToolArguments(request);
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        const readable =
          schemaName !== undefined ? readableError(method, schemaName, request) : readableParamsError(method, extension!, request);
        throw readable ?? error;
      }
    };
  }
}

/** A -32602 saying, in words, what each wrong field of an extension method's params must be and what it got. */
function readableParamsError(
  method: string,
  extension: { schema: ParamsSchema; fields: Record<string, string> },
  request: JSONRPCRequest,
): ProtocolError | undefined {
  const outcome = extension.schema["~standard"].validate(request.params ?? {});
  if (outcome instanceof Promise || outcome.issues === undefined) return undefined;
  const problems = outcome.issues.map((issue) => {
    const field = (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".");
    const what = extension.fields[field];
    const typed = /expected (\w+), received (\w+)/.exec(issue.message);
    const name = field === "" ? "params" : `params.${field}`;
    if (typed === null) return `${name}: ${issue.message.replace(/^Invalid input: /, "")}`;
    const [, expected, received] = typed;
    const got = received === "undefined" ? "it is missing" : `got a ${received}`;
    return `${name} must be a ${expected}${what === undefined ? "" : ` (${what})`}; ${got}`;
  });
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request: ${problems.join("; ")}.`);
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
