import { ConfigurationError } from "../common/configuration-error.ts";

/** A setting the MCP server cannot start with: the message names it and what would be right. */
export class StartupError extends ConfigurationError {}
