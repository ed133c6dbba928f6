/**
 * What a tool is: static data (name, description, parameter schema, hints) plus how its validated
 * arguments become exactly one upstream request, or, for arguments whose answer takes several, a plan of
 * them (tools/definition/request-plan.ts). Everything a front end asks of a tool is here too: the view that
 * draws its results, and for a write, what the athlete approves. The front ends (OpenClaw plugin, MCP
 * server) only loop over the table of these; neither knows a tool by name.
 *
 * Each training log has definitions of its own under the same names where the intent is the same (tools/table.ts
 * holds Strava's, tools/intervals-icu/ intervals.icu's): what differs per upstream is said on the definition (its
 * parameter schema, its request, how its answer is shaped, its summary of a write), so front ends stay as they are.
 */
import type { Static, TObject } from "@sinclair/typebox";
import type { UpstreamRequest } from "../../common/upstream/upstream-request.ts";
import type { PlanContext, RequestPlan } from "./request-plan.ts";
import type { RequestContext } from "./request-context.ts";

export type { RequestContext } from "./request-context.ts";

/** Hints for hosts and clients (they map to MCP tool annotations). */
export interface ToolAnnotations {
  /** The tool only reads. */
  readOnlyHint: boolean;
  /** The tool may overwrite or remove what the athlete has (an update replaces a title or description). */
  destructiveHint: boolean;
  /** Calling it twice with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** It reaches an external system (the training log). */
  openWorldHint: boolean;
}

/** What the host's approval prompt shows of a write: a short title and the change in plain text. */
export interface ChangeSummary {
  title: string;
  description: string;
}

/**
 * The record a write would change, as its read tool answered it (the parsed JSON body), or why it could not
 * be read (the approval is then shown without the current values, saying so).
 */
export type CurrentRecord = Record<string, unknown> | { unreadable: string };

/**
 * What a write tool gives a front end that holds writes for the athlete's approval (the plugin's approval
 * hook): the summary of the change, and whether that summary needs the record as it is now.
 */
export interface WriteApproval<A = Record<string, unknown>> {
  /**
   * For a write that changes a record that exists (an update shows current and proposed values): the read
   * tool that answers the record now, and its arguments from the write's. Absent for a write that creates.
   */
  readonly current?: { readonly tool: ToolDefinition; arguments(args: A): Record<string, unknown> };
  /** The approval's title and text from the validated arguments; `current` is given when `current` above is declared. */
  summary(args: A, current?: CurrentRecord): ChangeSummary;
}

/**
 * What a call made, as its answer names it (ids as strings): the activities (one file on intervals.icu may hold
 * several), the upload they came from (Strava's, processed after it answers), or both.
 */
export interface CreatedActivity {
  activityIds?: readonly string[];
  uploadId?: string;
}

export interface ToolDefinition {
  /** Unprefixed name, e.g. "get_activities" (the OpenClaw plugin registers "fitness_get_activities"). */
  readonly name: string;
  /** Short human label, e.g. "List activities". */
  readonly title: string;
  /** Written for a model: what it returns, units, when to use it. */
  readonly description: string;
  /** TypeBox object schema; at runtime a plain JSON Schema object with `properties` and `required`. */
  readonly parameters: TObject;
  readonly annotations: ToolAnnotations;
  /** The one upstream operation it calls, as the tool table names it: "GET /activities/{id}" (below the log's API base). */
  readonly upstream: string;
  /**
   * The day Strava retired that operation (ISO date), for the tool reference: the tool stays, for upstreams that still
   * serve it, and its error says so.
   */
  readonly retiredByStrava?: string;
  /** Builds the upstream request from validated arguments (defaults applied). Throws `ToolInputError`. */
  request(args: Record<string, unknown>, context: RequestContext): UpstreamRequest | Promise<UpstreamRequest>;
  /**
   * For arguments whose answer takes several upstream requests: their plan, which runTool sends instead of
   * `request`; undefined for the one request. Throws (or rejects with) `ToolInputError`; may wait for what the
   * context answers (the athlete's local date), never for a request of its own.
   */
  plan?(args: Record<string, unknown>, context: PlanContext): RequestPlan | undefined | Promise<RequestPlan | undefined>;
  /**
   * Turns a successful upstream body into the result text, given the validated arguments (for options
   * such as `fields` that reshape the answer). Returns undefined for the default: the body, compact.
   */
  resultText?(bodyText: string, args: Record<string, unknown>): string | undefined;
  /** Advice added to an upstream status error for conditions this tool knows about. */
  /** Advice added to an upstream status error for conditions this tool knows about, from the status and the upstream's error body as read (Strava's Fault). */
  errorHint?(status: number, errorBody: unknown): string | undefined;
  /**
   * The MCP Apps view that draws this tool's results, by the view's name (the views are served by the MCP
   * server: mcp-adapter/apps/app-views.ts). Absent: results are shown as text only.
   */
  readonly view?: string;
  /** Every write tool's (readOnlyHint false): what the athlete approves before it runs. */
  readonly writeApproval?: WriteApproval;
  /**
   * For a tool whose successful answer names an activity the caller made (a write that creates one, or the
   * status of an upload it started): those ids, from the answer's text. The plugin keeps what the coach made,
   * so that its debriefs of new activities leave them out.
   */
  createdActivity?(resultText: string): CreatedActivity | undefined;
}

/** Declares a tool with its arguments typed from its schema. */
export function defineTool<P extends TObject>(
  definition: Omit<ToolDefinition, "parameters" | "request" | "plan" | "resultText" | "writeApproval"> & {
    parameters: P;
    request(args: Static<P>, context: RequestContext): UpstreamRequest | Promise<UpstreamRequest>;
    plan?(args: Static<P>, context: PlanContext): RequestPlan | undefined | Promise<RequestPlan | undefined>;
    resultText?(bodyText: string, args: Static<P>): string | undefined;
    writeApproval?: WriteApproval<Static<P>>;
  },
): ToolDefinition {
  // A write that no host could show the athlete before it runs must not exist: refused when its module loads.
  if (!definition.annotations.readOnlyHint && definition.writeApproval === undefined) {
    throw new TypeError(
      `The tool ${definition.name} writes (readOnlyHint is false) but has no writeApproval: give it the summary a host shows before it runs.`,
    );
  }
  // Clients expect `required` on every input schema (the specification of the tools says "with properties and required");
  // TypeBox leaves it out when no parameter is required.
  const parameters = definition.parameters as TObject & { required?: string[] };
  parameters.required ??= [];
  return definition as unknown as ToolDefinition;
}

export const readOnly: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};
