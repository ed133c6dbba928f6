import { NamedError } from "../common/named-error.ts";

/** A setting the operator must fix before the server can start; its message says what and how. */
export class StartupError extends NamedError {}
