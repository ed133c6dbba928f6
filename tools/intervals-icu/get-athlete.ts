/**
 * `get_athlete` on intervals.icu: get athlete profile (`GET /athlete/{id}`). The tool as data: its schema,
 * description, the request it sends and how its answer is shaped; tools/runner/ runs it the same way from every
 * front end.
 */
import { Type } from "@sinclair/typebox";
import { defineTool, readOnly } from "../definition/tool-definition.ts";
import { isJsonObject, parseExact } from "../answers/exact-json.ts";
import { athletePath } from "./request-needs.ts";

export const getAthlete = defineTool({
  name: "get_athlete",
  title: "Get athlete profile",
  description:
    "The athlete's profile on intervals.icu: id (such as i123456), name, sex, city, country, timezone (their local dates are in " +
    "it), weight (kg), resting heart rate, bikes and shoes, and sportSettings per sport group: FTP, threshold and maximum heart " +
    "rate, heart-rate zones (each zone's top in bpm) and power zones (% of FTP), threshold pace. Takes no arguments.",
  parameters: Type.Object({}, { additionalProperties: false }),
  upstream: "GET /athlete/{id}",
  annotations: readOnly,
  async request(_args, context) {
    return { method: "GET", path: await athletePath(context) };
  },
  resultText(bodyText) {
    // The profile may carry the athlete's API key field: never handed to a model, even empty.
    const athlete = parseExact(bodyText);
    if (!isJsonObject(athlete) || !("icu_api_key" in athlete)) return undefined;
    const { icu_api_key: _key, ...rest } = athlete;
    return JSON.stringify(rest);
  },
});
