/**
 * `create_upload` on Strava: upload an activity file (`POST /uploads`). The tool as data: its schema, description,
 * the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool } from "./definition/tool-definition.ts";
import { StringEnum } from "../common/schema-check.ts";
import { uploadDataTypes } from "./arguments/parameter-schemas.ts";
import { decodeBase64File, maxUploadBytes } from "./arguments/base64-file.ts";
import { summarizeUpload } from "./writes/write-change-summary.ts";
import { uploadOutcomeOf } from "./answers/created-activity.ts";

export const createUpload = defineTool({
  name: "create_upload",
  title: "Upload an activity file",
  description:
    "Upload a recorded activity file (FIT, TCX or GPX, optionally gzipped) to create an activity. Give the file's " +
    "bytes base64-encoded in `file`. Strava processes uploads asynchronously (about 8 s): this returns an upload " +
    "object {id, id_str, external_id, error, status, activity_id}; poll get_upload with its id, at most once a " +
    "second, until activity_id is set or error is not null. A duplicate file gets an error naming the existing activity.",
  parameters: Type.Object(
    {
      file: Type.String({
        minLength: 1,
        // base64 of the largest accepted file, plus room for line breaks.
        maxLength: Math.ceil((maxUploadBytes * 4) / 3) + 1_048_576,
        description: `The file's content, base64-encoded (standard or URL-safe alphabet). At most ${maxUploadBytes / 1_048_576} MB once decoded.`,
      }),
      data_type: StringEnum(uploadDataTypes, { description: "File format: fit, tcx or gpx, with .gz when gzipped." }),
      name: Type.Optional(Type.String({ maxLength: 255, description: "Title for the new activity (otherwise Strava names it)." })),
      description: Type.Optional(Type.String({ maxLength: 65_535, description: "Description for the new activity." })),
      trainer: Type.Optional(Type.Boolean({ description: "True for an indoor trainer session." })),
      commute: Type.Optional(Type.Boolean({ description: "True if this was a commute." })),
      external_id: Type.Optional(
        Type.String({
          maxLength: 255,
          description: "Your own identifier for this file, echoed back on the upload (useful to spot duplicates).",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "POST /uploads",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  request(args) {
    const bytes = decodeBase64File(args.file);
    // Strava wants multipart/form-data with the file as a real file part; JSON is rejected.
    const fields: Record<string, string> = { data_type: args.data_type };
    if (args.name !== undefined) fields["name"] = args.name;
    if (args.description !== undefined) fields["description"] = args.description;
    if (args.trainer !== undefined) fields["trainer"] = args.trainer ? "1" : "0";
    if (args.commute !== undefined) fields["commute"] = args.commute ? "1" : "0";
    if (args.external_id !== undefined) fields["external_id"] = args.external_id;
    const file = { field: "file", filename: `activity.${args.data_type}`, contentType: "application/octet-stream", bytes };
    return { method: "POST", path: "/uploads", body: { kind: "multipart", fields, file } };
  },
  createdActivity: uploadOutcomeOf,
  writeApproval: { summary: summarizeUpload },
});
