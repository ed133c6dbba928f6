/**
 * The plugin and the coach on intervals.icu in the real host, one gateway for all of it (each gateway start is a
 * minute here): `npm run setup:coach` installs the coach, the operator's two steps for intervals.icu follow
 * (`"upstream": "intervals.icu"` in the plugin's config, the athlete's key written by `npm run authorize:intervals`
 * into a Secrets Manager secret on moto_server, the key on standard input), the athlete writes on Telegram (the fake
 * Bot API) and a scripted model (test/host/coach-script-intervals.ts) plays the coach against the sandbox's
 * intervals.icu face:
 *
 * - a held write allowed once: "rename my last run" reads the skill and its logging.md (beside SKILL.md, through the
 *   host's `read`), lists in intervals.icu's terms, and the update of an `i...` activity is held by the host until the
 *   athlete's Allow, then sent to intervals.icu once;
 * - "am I overtraining?" is answered from one training-load summary, with the skill's training-load.md and, for the
 *   summary's `readiness_trend`, wellness.md read first; the reply quotes the readiness numbers as the tool returned
 *   them (the script holds no figures, the check reads them from the tool result the model received);
 * - the key from a token file: the running gateway's plugin config is switched to a token file written by
 *   `npm run authorize:intervals -- --store file` (the host reloads the plugin), the key is taken out of the secret,
 *   and a read through POST /tools/invoke still answers;
 * - the key in no log: the gateway's, the commands', the model's requests, the athlete's chat.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { intervalsAthleteId } from "../../../sandbox/intervals-face/intervals-identity.ts";
import { intervalsToolTable } from "../../../tools/intervals-icu/table.ts";
import { hostToolName } from "../../../plugin/host-tool.ts";
import { pluginOnlyTools } from "../../../plugin/plugin-only-tools.ts";
import type { IntervalsLoadAnswer } from "../../../tools/training-load/training-load-answer.ts";
import type { CheckReport } from "../check-report.ts";
import type { HostCheckModule } from "../host-check-module.ts";
import type { HostContext, RunningGateway } from "../host-context.ts";
import type { HostServices } from "../host-services.ts";
import { fitnessHostConfig } from "../fitness-host-config.ts";
import { copyPluginCheckout } from "../plugin-package.ts";
import { runSetupCoach } from "../run-setup-coach.ts";
import { startFakeTelegramBotApi, type BotMessage, type FakeTelegramBotApi } from "../fake-telegram-bot-api.ts";
import { messageText, startScriptedModelServer, type ScriptedModelServer } from "../scripted-model-server.ts";
import { isCoachRequest } from "../coach-script.ts";
import { intervalsAthleteSays, intervalsCoachScript, intervalsListFields, intervalsRunTitle } from "../coach-script-intervals.ts";

const coach = "coach";
const turnTimeoutMs = 180_000;
/** A secret of its own: the other modules' Strava secret stays as they expect it. */
const secretName = "fitness-intervals";

interface Coach {
  context: HostContext;
  services: HostServices;
  gateway: RunningGateway;
  bot: FakeTelegramBotApi;
  model: ScriptedModelServer;
  token: string;
}

const module: HostCheckModule = {
  title: "the plugin and the coach on intervals.icu (the key in Secrets Manager, then in a token file; scripted model, fake Bot API)",
  async run({ repoRoot, services, report, withHost }) {
    const { sandbox } = services;
    const key = sandbox.intervalsApiKey;
    const printed: string[] = [];
    await withHost(async (context) => {
      const env = { INTERVALS_API_BASE: sandbox.intervalsApiBase };
      const stored = await report.check(
        `npm run authorize:intervals -- --store secrets-manager --secret-name ${secretName} (the key on standard input) checks the key with intervals.icu and keeps it in the secret`,
        async () => {
          const run = await authorizeIntervals(
            repoRoot,
            context,
            ["--store", "secrets-manager", "--secret-name", secretName, "--region", services.region],
            key,
            env,
          );
          printed.push(run.output);
          assert.equal(run.code, 0, run.output);
          assert.match(run.output, new RegExp(intervalsAthleteId));
          return `${(run.ms / 1000).toFixed(1)} s; ${run.output.trim().split("\n").at(-1)}`;
        },
      );
      if (!stored) return report.blocked("the coach on intervals.icu", "the key could not be stored");

      const bot = await startFakeTelegramBotApi();
      const model = await startScriptedModelServer(intervalsCoachScript);
      const token = `${7_000_000 + Math.floor(Math.random() * 1_000_000)}:${randomBytes(12).toString("hex")}`;
      let gateway: RunningGateway | undefined;
      try {
        const installed = await report.check(
          'npm run setup:coach --sandbox off, then the plugin\'s "upstream": "intervals.icu" and the secret: a config the host accepts',
          async () => {
            const pluginDir = await copyPluginCheckout(repoRoot, join(context.dir, "openclaw-fitness"));
            const before = {
              ...fitnessHostConfig(context, services, { loadPaths: [pluginDir] }),
              agents: context.baseConfig()["agents"],
            } as Record<string, unknown>;
            delete (before["tools"] as Record<string, unknown>)["toolSearch"];
            await context.writeConfig(before);
            const setup = await runSetupCoach(repoRoot, context, [
              "--workspace",
              join(context.dir, "workspace-coach"),
              "--config",
              context.configPath,
              "--sandbox",
              "off",
              "--telegram-user-id",
              String(bot.athlete.id),
            ]);
            printed.push(setup.output);
            assert.equal(setup.code, 0, setup.output);
            const config = await context.readConfig();
            // The operator's step for intervals.icu (docs/operators/coach.md), and the test's own: the scripted model, the fake Bot API.
            const fitness = at(config, ["plugins", "entries", "fitness"]) as Record<string, unknown>;
            fitness["config"] = { upstream: "intervals.icu", secretName, cloudRegion: services.region };
            config["models"] = {
              mode: "merge",
              providers: {
                scripted: {
                  baseUrl: model.baseUrl,
                  apiKey: "scripted-not-a-key",
                  api: "openai-completions",
                  models: [
                    {
                      id: "coach-script",
                      name: "Scripted coach",
                      reasoning: false,
                      input: ["text"],
                      contextWindow: 128_000,
                      maxTokens: 4096,
                    },
                  ],
                },
              },
            };
            (at(config, ["agents", "defaults"]) as Record<string, unknown>)["model"] = { primary: "scripted/coach-script" };
            (at(config, ["channels", "telegram", "accounts", coach]) as Record<string, unknown>)["apiRoot"] = bot.apiRoot;
            await context.writeConfig(config);
            const { json } = await context.runJson<{ valid: boolean; warnings?: unknown[] }>(["config", "validate", "--json"]);
            assert.equal(json.valid, true, JSON.stringify(json));
            return `${(setup.ms / 1000).toFixed(1)} s`;
          },
        );
        if (!installed) return report.blocked("the coach on intervals.icu", "setup:coach did not install the coach");

        const started = await report.check(
          "the gateway starts with the plugin on intervals.icu and the coach's account polling the fake Bot API",
          async () => {
            const startedAt = performance.now();
            gateway = await context.startGateway({ env: { TELEGRAM_COACH_BOT_TOKEN: token, ...env } });
            await bot.waitFor(
              "the coach's account polling getUpdates",
              () => bot.calls.some((call) => call.token === token && call.method === "getUpdates") || undefined,
              120_000,
            );
            return `ready and polling after ${((performance.now() - startedAt) / 1000).toFixed(0)} s`;
          },
        );
        if (!started || !gateway) return report.blocked("the coach on intervals.icu", "the gateway did not start");
        const host: Coach = { context, services, gateway, bot, model, token };

        await heldWriteAllowedOnce(report, host);
        await overtrainingOnIntervals(report, host);
        await keyFromTokenFile(report, host, repoRoot, printed, env);

        await report.check(
          "the key is in no log and no file but the token file: the gateway's output, the host's state and logs, the commands', the model's requests, the athlete's chat",
          async () => {
            const seen = {
              gateway: host.gateway.output(),
              commands: printed.join("\n"),
              model: JSON.stringify(model.exchanges),
              chat: JSON.stringify(bot.calls),
            };
            for (const [where, text] of Object.entries(seen)) assert.ok(!text.includes(key), `the key reached ${where}`);
            // Every file the host wrote in its scratch folder (its logs, state, sessions, config), the plugin's copy aside.
            const holding = await filesHolding(context.dir, key, [join(context.dir, "openclaw-fitness"), join(context.dir, "intervals")]);
            assert.deepEqual(holding, [], "files holding the key");
            assert.deepEqual(
              model.failures.map((error) => error.message),
              [],
            );
            return Object.entries(seen)
              .map(([where, text]) => `${where} ${text.length.toLocaleString("en-US")} characters`)
              .join(", ");
          },
        );
      } finally {
        await gateway?.stop();
        await bot.close();
        await model.close();
      }
    });
  },
};

export default module;

/**
 * A write the host holds: the athlete dictates a new name for their last run; the coach reads the skill and its
 * logging.md, lists in intervals.icu's terms and calls the update, which reaches intervals.icu only after Allow, once.
 */
async function heldWriteAllowedOnce(report: CheckReport, host: Coach): Promise<void> {
  const { bot, token, model, services } = host;
  const puts = (): number => services.sandbox.counters().byRoute["intervals.icu PUT /activity/{id}"] ?? 0;
  const before = puts();
  let card: BotMessage | undefined;
  const held = await report.check(
    "turn 1: the skill and logging.md read through the host, a list in intervals.icu's terms, the update of an i... activity held for the athlete",
    async () => {
      const started = performance.now();
      bot.send(token, intervalsAthleteSays.renameRun);
      card = await waitForCard(host, (text) => text.includes(intervalsRunTitle));
      const calls = coachToolCalls(model);
      assert.deepEqual(
        calls.map((call) => call.name),
        ["read", "read", "fitness_get_activities", "fitness_update_activity"],
      );
      assert.match(String(calls[1]?.arguments["path"]), /fitness-coaching[\\/]logging\.md$/);
      assert.match(
        toolResultText(model, "read", calls[1]!.arguments),
        /^# Logging an activity\n/,
        "logging.md could not be read beside SKILL.md",
      );
      assert.deepEqual(calls[2]?.arguments, { limit: 10, fields: intervalsListFields });
      assert.match(String(calls[3]?.arguments["id"]), /^i\d+$/);
      // The model was given intervals.icu's tools (and none of Strava's that intervals.icu lacks), with our schemas,
      // and in the athlete's own turns the plugin-only debrief switch (setup:coach turns the debriefs on).
      const given = model.exchanges.find((exchange) => isCoachRequest(exchange.request))?.request.tools ?? [];
      const fitness = given.map((tool) => tool.function.name).filter((name) => name.startsWith("fitness_"));
      const pluginOnly = pluginOnlyTools.map((tool) => tool.name);
      assert.deepEqual(fitness.sort(), [...intervalsToolTable.map(hostToolName), ...pluginOnly].sort());
      for (const definition of intervalsToolTable)
        assert.deepEqual(
          given.find((tool) => tool.function.name === hostToolName(definition))?.function.parameters,
          JSON.parse(JSON.stringify(definition.parameters)),
          `${definition.name}'s schema changed on the way`,
        );
      assert.equal(puts(), before, "an update reached intervals.icu before the athlete allowed it");
      // The plugin built its tools on their first use: on intervals.icu, the key from the secret.
      const ready = readyLines(host.gateway).at(-1) ?? "";
      assert.match(ready, /"upstream":"intervals\.icu"/, `the plugin did not say it serves intervals.icu: ${ready}`);
      assert.match(ready, new RegExp(`Secrets Manager secret \\\\?"${secretName}\\\\?"`), `the plugin did not name the secret: ${ready}`);
      return `${((performance.now() - started) / 1000).toFixed(1)} s; held: ${firstLine(plainText(card.text))}`;
    },
  );
  if (!held) return;
  await report.check("turn 1: Allow sends the update to intervals.icu once, with only the name the athlete gave", async () => {
    bot.press(token, /allow/i);
    await waitForReply(host, /Renamed on intervals\.icu/);
    assert.equal(puts(), before + 1, "updates reaching intervals.icu");
    const id = String(coachToolCalls(model).findLast((call) => call.name === "fitness_update_activity")?.arguments["id"]);
    const activity = (await face(services, `/activity/${id}`)) as { name?: string };
    assert.equal(activity.name, intervalsRunTitle);
    return `activity ${id} is now "${activity.name}"`;
  });
}

/**
 * "Am I overtraining?" on intervals.icu: one training-load summary, training-load.md before it and wellness.md after
 * it (the summary holds readiness_trend), the answer quoting the readiness numbers exactly as that call returned them.
 */
async function overtrainingOnIntervals(report: CheckReport, host: Coach): Promise<void> {
  const { bot, token, model, services } = host;
  await report.check(
    '"Am I overtraining?" on intervals.icu: one training-load summary (two requests to intervals.icu); the reply quotes its readiness numbers as returned',
    async () => {
      const asked = model.exchanges.length;
      const counters = { ...services.sandbox.counters().byRoute };
      const started = performance.now();
      bot.send(token, intervalsAthleteSays.overtraining);
      const reply = await waitForReply(host, /rules of thumb, not a diagnosis\.?$/);
      const calls = model.exchanges
        .slice(asked)
        .filter((exchange) => isCoachRequest(exchange.request))
        .flatMap((exchange) => exchange.reply.toolCalls ?? []);
      assert.deepEqual(
        calls.map((call) => call.name),
        ["read", "read", "fitness_get_activities", "read"],
      );
      assert.deepEqual(calls[2]?.arguments, { summary: true });
      assert.match(toolResultText(model, "read", calls[1]!.arguments), /^# Training load\n/, "training-load.md was not read");
      assert.match(toolResultText(model, "read", calls[3]!.arguments), /^# Wellness and readiness\n/, "wellness.md was not read");
      const now = services.sandbox.counters().byRoute;
      const sent = (route: string): number => (now[route] ?? 0) - (counters[route] ?? 0);
      assert.equal(sent("intervals.icu GET /athlete/{id}/activities"), 1, "activity list requests");
      assert.equal(sent("intervals.icu GET /athlete/{id}/wellness"), 1, "wellness requests");

      // The summary as the model received it; every number the reply gives is one of its own, as it wrote it.
      const summary = JSON.parse(toolResultText(model, "fitness_get_activities", { summary: true })) as IntervalsLoadAnswer;
      const { hrv, restingHR } = summary.readiness_trend;
      assert.equal(typeof hrv.mean_7d, "number", `no HRV in the last 7 days: ${summary.notes.join(" ")}`);
      assert.equal(summary.load_source.log, "intervals.icu");
      const answer = plainText(reply.text);
      const quoted = [
        `HRV 7-day mean ${String(hrv.mean_7d)} ms against your usual ${String(hrv.mean_28d)} (${String(hrv.difference_sd)} standard deviations)`,
        `resting heart rate 7-day mean ${String(restingHR.mean_7d)} against your usual ${String(restingHR.mean_28d)}`,
        `fitness ${String(summary.load.fitness)}, fatigue ${String(summary.load.fatigue)}, ramp rate ${String(summary.load.ramp_rate)}`,
      ];
      for (const text of quoted) assert.ok(answer.includes(text), `the answer lacks ${JSON.stringify(text)}:\n${answer}`);
      return `${((performance.now() - started) / 1000).toFixed(1)} s; ${quoted[0]}`;
    },
  );
}

/**
 * The key from a token file, on the same gateway: the file written by the operator's command, the plugin's config
 * switched to it (the host reloads the plugin), the key taken out of the secret; a read still answers.
 */
async function keyFromTokenFile(
  report: CheckReport,
  host: Coach,
  repoRoot: string,
  printed: string[],
  env: Record<string, string>,
): Promise<void> {
  const { context, gateway, services } = host;
  const tokenFile = join(context.dir, "intervals", "intervals-key.json");
  await report.check(
    "the key from a token file: written by npm run authorize:intervals -- --store file, the plugin's config switched to it on the running gateway, the secret emptied; a read answers",
    async () => {
      const written = await authorizeIntervals(
        repoRoot,
        context,
        ["--store", "file", "--token-file", tokenFile],
        services.sandbox.intervalsApiKey,
        env,
      );
      printed.push(written.output);
      assert.equal(written.code, 0, written.output);
      const config = await context.readConfig();
      (at(config, ["plugins", "entries", "fitness"]) as Record<string, unknown>)["config"] = {
        upstream: "intervals.icu",
        credentialStore: "token-file",
        tokenFile,
      };
      await context.writeConfig(config);
      const removed = await authorizeIntervals(
        repoRoot,
        context,
        ["--remove", "--store", "secrets-manager", "--secret-name", secretName, "--region", services.region],
        undefined,
        env,
      );
      printed.push(removed.output);
      assert.equal(removed.code, 0, removed.output);
      const started = performance.now();
      // The gateway applies the change by reloading the plugin (it may restart): until then calls fail or answer from before.
      // The plugin builds its tools on first use, and says from where (fitness_tools_ready): ask until the answer comes
      // from a plugin that read the token file.
      let athlete: { id?: unknown } | undefined;
      while (performance.now() - started < 240_000) {
        athlete = undefined;
        try {
          const answer = await gateway.invoke("fitness_get_athlete", {}, coach);
          const text = answer.body.result?.content?.[0]?.text ?? "";
          if (answer.status === 200 && answer.body.result?.isError !== true) athlete = JSON.parse(text) as { id?: unknown };
        } catch {
          athlete = undefined;
        }
        // Only a plugin that read the token file names it (the gateway keeps the last 20,000 characters of its output).
        const fromFile = readyLines(gateway).some((line) => line.includes(`token file ${tokenFile}`));
        if (athlete && fromFile) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      assert.equal(athlete?.id, intervalsAthleteId, `no answer from the token file's key within 240 s:\n${readyLines(gateway).join("\n")}`);
      return `the plugin reloaded on the token file after ${((performance.now() - started) / 1000).toFixed(0)} s; athlete ${String(athlete?.id)}`;
    },
  );
}

/** `npm run authorize:intervals -- ARGS` as an operator runs it, the key (when given) on standard input. */
function authorizeIntervals(
  repoRoot: string,
  context: HostContext,
  args: string[],
  key: string | undefined,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn("npm", ["run", "--silent", "authorize:intervals", "--", ...args], {
      cwd: repoRoot,
      env: { ...context.env, PATH: process.env["PATH"] ?? "", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) => (output += `\n[could not start npm: ${error.message}]`));
    child.on("close", (code) => resolve({ code, output, ms: performance.now() - started }));
    child.stdin.end(key === undefined ? "" : `${key}\n`);
  });
}

/** The files under `dir` (symbolic links not followed, `skip` folders left out) whose bytes hold `secret`. */
async function filesHolding(dir: string, secret: string, skip: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip.includes(path) || entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) found.push(...(await filesHolding(path, secret, skip)));
    else if (entry.isFile() && (await readFile(path)).includes(secret)) found.push(path);
  }
  return found;
}

/** intervals.icu's answer from the sandbox's face directly, with the athlete's key. */
async function face(services: HostServices, path: string): Promise<unknown> {
  const response = await fetch(`${services.sandbox.intervalsApiBase}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`API_KEY:${services.sandbox.intervalsApiKey}`).toString("base64")}` },
  });
  assert.equal(response.status, 200, `${path}: ${response.status}`);
  return await response.json();
}

/** The plugin's `fitness_tools_ready` log lines so far, in order. */
function readyLines(gateway: RunningGateway): string[] {
  return gateway
    .output()
    .split("\n")
    .filter((line) => line.includes("fitness_tools_ready"));
}

function coachToolCalls(model: ScriptedModelServer): Array<{ name: string; arguments: Record<string, unknown> }> {
  return model.exchanges.filter((exchange) => isCoachRequest(exchange.request)).flatMap((exchange) => exchange.reply.toolCalls ?? []);
}

/** The text of the tool result the coach's model received for its latest call of `tool` with exactly `args`. */
function toolResultText(model: ScriptedModelServer, tool: string, args: Record<string, unknown>): string {
  for (const exchange of [...model.exchanges].reverse()) {
    const messages = exchange.request.messages;
    const call = messages
      .flatMap((message) => message.tool_calls ?? [])
      .findLast(
        (candidate) => candidate.function.name === tool && isDeepStrictEqual(JSON.parse(candidate.function.arguments || "{}"), args),
      );
    const result = call && messages.find((message) => message.role === "tool" && message.tool_call_id === call.id);
    if (result) return messageText(result);
  }
  throw new Error(`the model never received a result of ${tool} ${JSON.stringify(args)}`);
}

async function waitForCard(host: Coach, matches: (text: string) => boolean): Promise<BotMessage> {
  return await explained(
    host,
    host.bot.waitFor(
      "an approval prompt with Allow/Deny",
      () =>
        host.bot
          .messages({ token: host.token })
          .find((message) => (message.reply_markup?.inline_keyboard?.flat().length ?? 0) > 0 && matches(message.text)),
      turnTimeoutMs,
    ),
  );
}

async function waitForReply(host: Coach, pattern: RegExp): Promise<BotMessage> {
  return await explained(
    host,
    host.bot.waitFor(
      `a reply matching ${pattern}`,
      () => host.bot.messages({ token: host.token }).find((message) => pattern.test(plainText(message.text))),
      turnTimeoutMs,
    ),
  );
}

/** A wait that failed says what the athlete saw and what the coach's model called, for the report. */
async function explained<T>(host: Coach, waiting: Promise<T>): Promise<T> {
  try {
    return await waiting;
  } catch (error) {
    const chat = host.bot.messages({ token: host.token }).map((message) => firstLine(plainText(message.text)).slice(0, 160));
    const calls = coachToolCalls(host.model).map((call) => `${call.name} ${JSON.stringify(call.arguments).slice(0, 160)}`);
    const failures = host.model.failures.map((failure) => failure.message);
    throw new Error(
      `${(error as Error).message}\nchat:\n${chat.slice(-6).join("\n")}\ncoach calls:\n${calls.slice(-8).join("\n")}\nmodel failures: ${failures.join("; ") || "none"}`,
      { cause: error },
    );
  }
}

/** What the athlete reads: Telegram HTML as text, a leading emoji dropped. */
function plainText(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/^[^\p{L}\p{N}]+/u, "");
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}

function at(root: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), root);
}
