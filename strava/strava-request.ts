/**
 * The request description moved to common/upstream/upstream-request.ts, below both training logs. OAuth
 * mode's code, which other work is changing, still imports it from here; it imports from common/upstream/
 * once that work lands, and this file goes.
 */
export { describeRequest, type UpstreamRequest } from "../common/upstream/upstream-request.ts";
