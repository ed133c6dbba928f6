/**
 * `npm run voice` with no usable AWS credentials, as a person meets it. Whoever calls the API (anyone with the
 * client token) gets one fixed 502 that names nothing of the machine; the log (the terminal of `npm run voice`,
 * the function's log when deployed) says what the AWS SDK actually found. An AWS_PROFILE that names no profile
 * is named there, with the files profiles are read from; a profile that exists but gives no credentials is told
 * apart; and with nothing at all the log says so. Each case is its own `npm run voice` process with a scratch
 * HOME (no ~/.aws), instance metadata off, and Bedrock pointed at the local fake, which must never be reached.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { baseEnv } from "../mcp-adapter/mcp-child.ts";
import { runNpm, type NpmRun } from "../support/npm-run.ts";
import { startBedrockFake, type BedrockFake } from "./bedrock-fake.ts";

const token = "voice-credentials-test-token-71d2";
let fake: BedrockFake;
const homes: string[] = [];
const running: NpmRun[] = [];

beforeAll(async () => {
  fake = await startBedrockFake();
});

afterAll(async () => {
  await Promise.all(running.map((run) => run.stop()));
  await fake?.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A HOME with `files` under it (paths relative to it). */
function scratchHome(files: Record<string, string> = {}): string {
  const home = mkdtempSync(join(tmpdir(), "voice-home-"));
  homes.push(home);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(home, path, ".."), { recursive: true });
    writeFileSync(join(home, path), text);
  }
  return home;
}

/** What the caller reads, whatever the machine lacks. */
const fixedAnswer =
  "The voice service could not use its model: its AWS credentials, model access or model id need the operator's attention (the handler's log says which).";

/**
 * Starts `npm run voice` with `extra` over an environment without AWS credentials, captures once, and returns
 * the answer and the message of the log's capture_failed line.
 */
async function captureWith(home: string, extra: Record<string, string>): Promise<{ status: number; message: string; logged: string }> {
  const voice = runNpm(
    ["run", "voice"],
    baseEnv({
      HOME: home,
      VOICE_LOCAL_PORT: "0",
      VOICE_LOCAL_CLIENT_TOKEN: token,
      VOICE_MODEL_ID: "us.anthropic.claude-sonnet-4-20250514-v1:0",
      AWS_REGION: "us-west-2",
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: fake.endpoint,
      // On a cloud machine the instance's own role would otherwise answer.
      AWS_EC2_METADATA_DISABLED: "true",
      ...extra,
    }),
  );
  running.push(voice);
  const [, url] = await voice.waitFor(/POST (http:\/\/127\.0\.0\.1:\d+\/dev\/invoke)/);
  const response = await fetch(url!, {
    method: "POST",
    headers: { "x-client-token": token, "content-type": "application/json" },
    body: JSON.stringify({ text: "buy milk", mode: "note" }),
  });
  const body = (await response.json()) as { message: string };
  await voice.stop();
  const failed = voice
    .stderr()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line["event"] === "capture_failed");
  expect(body.message).toBe(fixedAnswer);
  for (const revealing of [home, "AWS_PROFILE", "profile", ".aws"]) expect(body.message).not.toContain(revealing);
  return { status: response.status, message: body.message, logged: String(failed?.["message"]) };
}

describe("npm run voice without AWS credentials: a fixed answer, and the log says what it found", () => {
  test("an AWS_PROFILE that names no profile: named, with the files read and what they hold", async () => {
    const home = scratchHome({ ".aws/config": "[default]\nregion = us-west-2\n\n[profile work]\nregion = eu-west-1\n" });
    const answer = await captureWith(home, { AWS_PROFILE: "coach" });
    expect(answer.status).toBe(502);
    expect(answer.logged).toBe(
      `No AWS credentials to call Bedrock in us-west-2: AWS_PROFILE is "coach", but no profile of that name is in ${home}/.aws/config and ${home}/.aws/credentials (not there), ` +
        "where the AWS SDK reads profiles (AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE choose other files). " +
        "Set AWS_PROFILE to one they hold (default, work), add it (aws configure --profile coach), or unset AWS_PROFILE.",
    );
    expect(fake.requests).toHaveLength(0);
  });

  test("no credentials at all: says none was found anywhere, and where to put them", async () => {
    const home = scratchHome();
    const answer = await captureWith(home, {});
    expect(answer.status).toBe(502);
    expect(answer.logged).toBe(
      "No AWS credentials to call Bedrock in us-west-2: none in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), no AWS_PROFILE, " +
        `no default profile in ${home}/.aws/config (not there) and ${home}/.aws/credentials (not there), and no role from this machine or container. ` +
        "Give the function a role; locally, set AWS_PROFILE to a profile in those files (aws configure --profile NAME makes one), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.",
    );
    expect(answer.logged).not.toContain('AWS_PROFILE is "');
  });

  test("a profile that exists but gives no credentials is told apart from one that does not exist", async () => {
    const home = scratchHome({ ".aws/config": "[profile coach]\nregion = us-west-2\n" });
    const answer = await captureWith(home, {
      AWS_PROFILE: "coach",
      AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
      AWS_SECRET_ACCESS_KEY: "not-used-while-a-profile-is-named",
    });
    expect(answer.status).toBe(502);
    expect(answer.logged).toBe(
      `No AWS credentials to call Bedrock in us-west-2: the profile "coach" (AWS_PROFILE, in ${home}/.aws/config) gave none: give it keys or a role ` +
        "(aws configure --profile coach), or sign in if it uses AWS SSO (aws sso login --profile coach). " +
        "While AWS_PROFILE is set, the SDK does not use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.",
    );
    expect(answer.logged).not.toContain("not-used-while-a-profile-is-named");
  });
});
