/**
 * The coach setup's own error: a problem its operator can fix, which `npm run setup:coach` prints as "Coach setup
 * stopped: <message>" and exits 1, without a stack.
 */
import { ConfigurationError } from "../../common/configuration-error.ts";

/** A problem the person running the coach setup can fix; the message says what and how. */
export class CoachSetupError extends ConfigurationError {}
