/**
 * `get_upload` on Strava: check an upload (`GET /uploads/{id}`). The tool as data: its schema, description, the
 * request it sends and how its answer is shaped; tools/runner/ runs it the same way from every front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "./definition/tool-definition.ts";
import { uploadOutcomeOf } from "./answers/created-activity.ts";

export const getUpload = defineTool({
  name: "get_upload",
  title: "Check an upload",
  description:
    "Status of a file upload started with create_upload: {id, id_str, external_id, error, status, activity_id}. " +
    'status is one of "Your activity is still being processed.", "Your activity is ready.", "There was an error ' +
    'processing your activity." or "The created activity has been deleted."; activity_id is set once ready. ' +
    "Poll at most once a second.",
  parameters: Type.Object(
    { id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "Upload id returned by create_upload." }) },
    { additionalProperties: false },
  ),
  upstream: "GET /uploads/{id}",
  annotations: readOnly,
  request(args) {
    return { method: "GET", path: `/uploads/${args.id}` };
  },
  createdActivity: uploadOutcomeOf,
  errorHint(status) {
    return status === 404 ? "No upload has this id: it is the `id` create_upload answered with (not the activity's id)." : undefined;
  },
});
