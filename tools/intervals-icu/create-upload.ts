/**
 * `create_upload` on intervals.icu: upload an activity file (`POST /athlete/{id}/activities`). The tool as data:
 * its schema, description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way
 * from every front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool } from "../definition/tool-definition.ts";
import { StringEnum } from "../../common/schema-check.ts";
import { uploadDataTypes } from "../arguments/parameter-schemas.ts";
import { decodeBase64File, maxUploadBytes } from "../arguments/base64-file.ts";
import { summarizeUploadIn } from "../writes/write-change-summary.ts";
import { athletePath } from "./request-needs.ts";
import { uploadedActivitiesOf } from "../answers/created-activity.ts";

export const createUpload = defineTool({
  name: "create_upload",
  title: "Upload an activity file",
  description:
    "Upload a recorded activity file (FIT, TCX or GPX, optionally gzipped) to the athlete's intervals.icu log, creating an activity. " +
    "Give the file's bytes base64-encoded in `file`. intervals.icu answers at once: {icu_athlete_id, id, activities: [{icu_athlete_id, " +
    "id}]} with the new activity's id (status 201); the same file uploaded before answers 200 with the activity it made then. " +
    "There is nothing to poll.",
  parameters: Type.Object(
    {
      file: Type.String({
        minLength: 1,
        // base64 of the largest accepted file, plus room for line breaks.
        maxLength: Math.ceil((maxUploadBytes * 4) / 3) + 1_048_576,
        description: `The file's content, base64-encoded (standard or URL-safe alphabet). At most ${maxUploadBytes / 1_048_576} MB once decoded.`,
      }),
      data_type: StringEnum(uploadDataTypes, { description: "File format: fit, tcx or gpx, with .gz when gzipped." }),
      name: Type.Optional(Type.String({ maxLength: 255, description: "Title for the new activity (otherwise intervals.icu names it)." })),
      description: Type.Optional(
        Type.String({
          maxLength: 2_000,
          description:
            "Description for the new activity. It goes in the request's address, so at most 2,000 characters; set a longer one with update_activity after.",
        }),
      ),
      external_id: Type.Optional(
        Type.String({ maxLength: 255, description: "Your own identifier for this file: the activity's id on the system it came from." }),
      ),
    },
    { additionalProperties: false },
  ),
  upstream: "POST /athlete/{id}/activities",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async request(args, context) {
    const bytes = decodeBase64File(args.file);
    // intervals.icu reads the format from the file part's name; the other values go in the query.
    const file = { field: "file", filename: `activity.${args.data_type}`, contentType: "application/octet-stream", bytes };
    return {
      method: "POST",
      path: `${await athletePath(context)}/activities`,
      query: { name: args.name, description: args.description, external_id: args.external_id },
      body: { kind: "multipart", fields: {}, file },
    };
  },
  createdActivity: uploadedActivitiesOf,
  writeApproval: { summary: (args) => summarizeUploadIn(args, { log: "intervals.icu", sportField: "type" }) },
});
