/**
 * `npm run voice:offline`: the voice capture API exactly as `npm run voice` runs it (the local gateway, the
 * authorizer and the handler), with Bedrock played by the tests' local fake (bedrock-fake.ts), which files the
 * dictated text as the item the mode asks for without understanding it. No AWS account and no network: a way
 * to see the API work, its throttle, its errors and the dates it reads from the text. Ctrl-C stops it.
 */
import { startBedrockFake } from "./bedrock-fake.ts";

const fake = await startBedrockFake();
fake.fallback = { kind: "echo" };
const chosenToken = process.env["VOICE_LOCAL_CLIENT_TOKEN"];
Object.assign(process.env, {
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.endpoint,
  AWS_ACCESS_KEY_ID: "offline",
  AWS_SECRET_ACCESS_KEY: "offline",
  AWS_REGION: process.env["AWS_REGION"] ?? "us-west-2",
  VOICE_MODEL_ID: "offline-fake-model",
  VOICE_LOCAL_CLIENT_TOKEN: chosenToken ?? "offline-demo-token",
});
// The AWS SDK would take a named profile over the keys above.
delete process.env["AWS_PROFILE"];

// A token the person chose stays off the screen; the demo's own is no secret, so it is shown.
const { runLocalGateway } = await import("../../voice/start-gateway-cli.ts");
await runLocalGateway(chosenToken === undefined ? { clientToken: "offline-demo-token (this demo's own, fixed: no secret)" } : {});
const port = process.env["VOICE_LOCAL_PORT"] ?? "8787";
const tokenHeader = chosenToken === undefined ? "offline-demo-token" : "$VOICE_LOCAL_CLIENT_TOKEN";
console.error(
  [
    `  model: a local fake of Bedrock (no AWS, no network): it files the text as the mode's item without understanding it.`,
    "  Try:",
    `    curl -s http://127.0.0.1:${port === "0" ? "PORT" : port}/dev/invoke -H "X-Client-Token: ${tokenHeader}" -H "Content-Type: application/json" \\`,
    `      -d '{"text":"remind me to call Sam tomorrow at 3pm","mode":"reminder"}'`,
    "",
  ].join("\n"),
);
