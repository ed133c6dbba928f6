/** A setting the MCP server cannot start with (StartupError): the message names it and what would be right. */
import { ConfigurationError } from "../common/configuration-error.ts";

export class StartupError extends ConfigurationError {}
