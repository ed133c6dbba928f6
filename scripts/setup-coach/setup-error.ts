import { ConfigurationError } from "../../common/configuration-error.ts";

/** A problem the person running the coach setup can fix; the message says what and how. */
export class CoachSetupError extends ConfigurationError {}
