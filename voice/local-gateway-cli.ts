/**
 * `npm run voice`: the voice capture API on http://127.0.0.1:8787/dev/invoke (VOICE_LOCAL_PORT to change the
 * port), running the Lambda authorizer and handler locally against real Bedrock (AWS credentials from the
 * usual places).
 */
import { runLocalGateway } from "./start-gateway-cli.ts";

await runLocalGateway();
