/**
 * The one base class of configuration errors: a setting, an option or a configuration file that is wrong,
 * with a message that names it and says what would be right. Front ends report them as the operator's to
 * fix (exit code, a page, a setup report) rather than as a fault of the program.
 */
import { NamedError } from "./named-error.ts";

export class ConfigurationError extends NamedError {}
