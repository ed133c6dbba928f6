/**
 * The coach speaks first, in the real host: `npm run setup:coach -- --debriefs 15m` installs the coach into a
 * scratch host; the plugin's debriefs then check the sandbox's log every 5 s (the test-only setting), the
 * athlete is on Telegram (a fake Bot API on loopback), and a scripted model plays the coach
 * (test/host/debrief-script.ts: its messages come only from the tool results it received).
 *
 * - After the baseline, checks with nothing new make no model request (and no message).
 * - An activity created in the sandbox (as a device upload would) brings one debrief to the athlete, in their
 *   chat with the coach's bot, naming it, with its day's load and the week's load as the summary gave them,
 *   and the offer to log it (a default name, an empty description); the wake turn offers no debrief switch.
 * - A gateway restart sends no second debrief; six activities that arrived while the gateway was down, during
 *   quiet hours configured around the real time (the host runs on real time), are held until the quiet hours
 *   end and then come as one debrief naming five and counting the sixth.
 * - The athlete's "stop" switches debriefs off through the plugin-only tool; an activity after that brings
 *   nothing, and no check is made.
 *
 * The model is scripted: this checks the plumbing (the wake, what the coach is given, what reaches the
 * athlete), never a real model's judgement.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TrainingLoadAnswer } from "../../../tools/training-load/training-load-answer.ts";
import { wallClockAt } from "../../../common/time-zone.ts";
import type { CheckReport } from "../check-report.ts";
import type { HostCheckModule } from "../host-check-module.ts";
import type { HostContext, RunningGateway } from "../host-context.ts";
import type { HostServices } from "../host-services.ts";
import { fitnessHostConfig } from "../fitness-host-config.ts";
import { copyPluginCheckout } from "../plugin-package.ts";
import { runSetupCoach } from "../run-setup-coach.ts";
import { startFakeTelegramBotApi, type BotMessage, type FakeTelegramBotApi } from "../fake-telegram-bot-api.ts";
import { startScriptedModelServer, messageText, type ModelRequest, type ScriptedModelServer } from "../scripted-model-server.ts";
import { athleteSaysToCoach, dayLoad, debriefActivityFields, debriefScript, debriefWords } from "../debrief-script.ts";

const coach = "coach";
const checkSeconds = 5;
const turnTimeoutMs = 120_000;
/** The sandbox athlete's zone (its activities' `timezone`), in which the quiet hours are read. */
const athleteZone = "America/Denver";
const listRoute = "GET /athlete/activities";

interface DebriefHost {
  context: HostContext;
  bot: FakeTelegramBotApi;
  model: ScriptedModelServer;
  token: string;
  gateway?: RunningGateway;
}

const module: HostCheckModule = {
  title: "the coach speaks first: debriefs of new workouts (setup:coach --debriefs, 5 s checks, scripted model, fake Bot API)",
  async run({ repoRoot, services, report, withHost }) {
    await withHost(async (context) => {
      const host: DebriefHost = {
        context,
        bot: await startFakeTelegramBotApi(),
        model: await startScriptedModelServer(debriefScript),
        token: `${7_000_000 + Math.floor(Math.random() * 1_000_000)}:${randomBytes(12).toString("hex")}`,
      };
      try {
        if (!(await install(report, repoRoot, host, services))) return;
        if (!(await startGateway(report, host, "the gateway starts with debriefs on and the coach's bot polling"))) return;
        if (!(await firstDebrief(report, host, services))) return;
        if (!(await restartDuringQuietHours(report, host, services))) return;
        await athleteTurnsThemOff(report, host, services);
        await report.check("the scripted model never hit a step it has no answer for", async () => {
          assert.deepEqual(
            host.model.failures.map((error) => error.message),
            [],
          );
          const stray = host.bot.messages({ token: host.token }).filter((message) => message.text.includes("SCRIPT:"));
          assert.deepEqual(
            stray.map((message) => message.text),
            [],
          );
          return `${host.model.exchanges.length} model requests, ${host.bot.calls.length} Bot API calls`;
        });
      } finally {
        // Kept with --keep: what the model was sent and answered, for a failure's post-mortem.
        await writeFile(join(context.dir, "model-exchanges.json"), JSON.stringify(host.model.exchanges, null, 1));
        await host.gateway?.stop();
        await host.bot.close();
        await host.model.close();
      }
    });
  },
};

export default module;

async function install(report: CheckReport, repoRoot: string, host: DebriefHost, services: HostServices): Promise<boolean> {
  const { context, bot, model } = host;
  return await report.check("npm run setup:coach --debriefs 15m writes the debriefs for the coach agent", async () => {
    const pluginDir = await copyPluginCheckout(repoRoot, join(context.dir, "openclaw-fitness"));
    const before = { ...fitnessHostConfig(context, services, { loadPaths: [pluginDir] }), agents: context.baseConfig()["agents"] };
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
      "--debriefs",
      "15m",
    ]);
    assert.equal(setup.code, 0, setup.output);
    const config = await context.readConfig();
    const fitness = at(config, ["plugins", "entries", "fitness", "config"]) as Record<string, unknown>;
    assert.equal(fitness["debriefs"], "15m");
    assert.equal(fitness["debriefAgent"], coach);
    // Test-only: the scripted model, the fake Bot API, checks every few seconds, no quiet hours yet.
    config["models"] = {
      mode: "merge",
      providers: {
        scripted: {
          baseUrl: model.baseUrl,
          apiKey: "scripted-not-a-key",
          api: "openai-completions",
          models: [
            { id: "coach-script", name: "Scripted coach", reasoning: false, input: ["text"], contextWindow: 128_000, maxTokens: 4096 },
          ],
        },
      },
    };
    (at(config, ["agents", "defaults"]) as Record<string, unknown>)["model"] = { primary: "scripted/coach-script" };
    (at(config, ["channels", "telegram", "accounts", coach]) as Record<string, unknown>)["apiRoot"] = bot.apiRoot;
    fitness["debriefTestIntervalSeconds"] = checkSeconds;
    fitness["debriefQuietHours"] = "off";
    await context.writeConfig(config);
    const { json } = await context.runJson<{ valid: boolean; warnings?: unknown[] }>(["config", "validate", "--json"]);
    assert.equal(json.valid, true, JSON.stringify(json));
    return `${(setup.ms / 1000).toFixed(1)} s; ${setup.output.split("\n").find((line) => line.startsWith("Debriefs")) ?? ""}`;
  });
}

async function startGateway(report: CheckReport, host: DebriefHost, name: string): Promise<boolean> {
  const { context, bot, token } = host;
  return await report.check(name, async () => {
    const started = performance.now();
    host.gateway = await context.startGateway({ env: { TELEGRAM_COACH_BOT_TOKEN: token } });
    const polls = bot.calls.filter((call) => call.method === "getUpdates").length;
    await bot.waitFor(
      "the coach's account polling getUpdates",
      () => bot.calls.filter((call) => call.token === token && call.method === "getUpdates").length > polls || undefined,
      120_000,
    );
    await waitUntil("the plugin's debriefs service started", () => host.gateway?.output().includes('"event":"debriefs_on"'), 60_000);
    return `ready after ${((performance.now() - started) / 1000).toFixed(0)} s`;
  });
}

/** Baseline, checks with nothing new, then one activity from "a device": one debrief. */
async function firstDebrief(report: CheckReport, host: DebriefHost, services: HostServices): Promise<boolean> {
  const { bot, model, token, context } = host;
  const greeted = await report.check("the athlete writes; the coach answers (their chat is the coach's last conversation)", async () => {
    bot.send(token, athleteSaysToCoach.hello);
    const reply = await waitForReply(host, /Welcome back/);
    return `"${reply.text}"`;
  });
  if (!greeted) return false;

  const idle = await report.check(
    "debriefs take a baseline (nothing already in the log is debriefed); checks with nothing new make no model request",
    async () => {
      await waitUntil("the baseline in the debriefs record", async () => (await readRecord(context))?.baselined === true, 60_000);
      const asked = model.exchanges.length;
      const sent = sends(host);
      const lists = listRequests(services);
      await waitUntil("three more checks", () => listRequests(services) >= lists + 3, 60_000);
      assert.equal(model.exchanges.length, asked, "a check with nothing new asked the model");
      assert.equal(sends(host), sent, "a check with nothing new sent a message");
      const record = await readRecord(context);
      return `${Object.keys(record?.seen ?? {}).length} activities of the last 48 h seen at the baseline; ${listRequests(services) - lists} checks since, one list request each, 0 model requests`;
    },
  );
  if (!idle) return false;

  return await report.check(
    "an activity created in the sandbox brings one debrief naming it, with its day's and week's load as the summary gave them",
    async () => {
      const asked = model.exchanges.length;
      const created = await createActivity(services, {
        name: "Lunch Ride",
        sport_type: "Ride",
        minutesAgo: 90,
        elapsed: 3900,
        distance: 31_400,
      });
      const started = performance.now();
      const message = await waitForReply(host, new RegExp(`${debriefWords.heading}: ${created.name}`));
      const seconds = (performance.now() - started) / 1000;
      const turn = model.exchanges.slice(asked);
      const toolsOffered = turn[0]?.request.tools?.map((tool) => tool.function.name) ?? [];
      assert.ok(!toolsOffered.includes("fitness_debriefs"), "the debrief switch was offered in a wake turn");
      const event =
        turn[0]?.request.messages
          .filter((message) => message.role === "user")
          .map(messageText)
          .find((text) => text.includes("[fitness debrief]")) ?? "";
      assert.match(event, new RegExp(`activity ${created.id}\\.`), "the wake does not name the activity by its id");
      assert.doesNotMatch(event, new RegExp(created.name), "the wake carries the activity's name (ids only)");
      const summary = JSON.parse(
        lastToolResult(
          turn.map((exchange) => exchange.request),
          "fitness_get_activities",
        ),
      ) as TrainingLoadAnswer;
      const load = dayLoad(summary, created.start_date_local);
      assert.equal(typeof load, "number", `no load for ${created.start_date_local} in the summary (days from ${summary.days.first})`);
      const text = plainText(message.text);
      assert.ok(
        text.includes(`Load ${String(load)} on ${created.start_date_local.slice(0, 10)}`),
        `the day's load is not as the summary gave it:\n${text}`,
      );
      assert.ok(
        text.includes(
          `This week: load ${String(summary.weeks.at(-1)?.total.load)} against ${String(summary.weeks.at(-2)?.total.load)} last week`,
        ),
        `the week's load is not as the summary gave it:\n${text}`,
      );
      assert.ok(text.includes(debriefWords.offer), "no offer to log an activity with a default name and no description");
      const naming = bot.messages({ token }).filter((sent) => sent.text.includes(created.name));
      assert.equal(naming.length, 1, "more than one message names the activity");
      const toolCalls = turn.flatMap((exchange) => exchange.reply.toolCalls ?? []);
      const calls = toolCalls.map((call) => call.name);
      // The procedure and the activity at once, then the summary, then the answer: three model requests.
      assert.deepEqual(calls, ["read", "fitness_get_activity_by_id", "fitness_get_activities"]);
      assert.equal(turn.length, 3, "model requests in the debrief turn");
      assert.deepEqual(toolCalls[1]?.arguments, { id: created.id, fields: debriefActivityFields });
      return `${seconds.toFixed(1)} s from the upload to the message (checks every ${checkSeconds} s); ${turn.length} model requests (${calls.join(", ")}, then the answer): "${text.split("\n").join(" | ")}"`;
    },
  );
}

/**
 * The gateway stops; six activities arrive meanwhile; it starts again inside quiet hours set around the real
 * time. Nothing is checked while quiet; after them one debrief names five, counts the sixth, and the first
 * activity is not debriefed again.
 */
async function restartDuringQuietHours(report: CheckReport, host: DebriefHost, services: HostServices): Promise<boolean> {
  const { context, bot, model, token } = host;
  let quietEndMs = 0;
  let created: CreatedActivity[] = [];
  const restarted = await report.check("the gateway stops; six activities arrive; it starts again inside quiet hours", async () => {
    await host.gateway?.stop();
    host.gateway = undefined;
    created = [];
    for (let index = 0; index < 6; index++) {
      created.push(
        await createActivity(services, {
          name: `Evening Run ${index + 1}`,
          sport_type: "Run",
          minutesAgo: 30 + index,
          elapsed: 1800,
          distance: 5000,
        }),
      );
    }
    // Quiet from this minute until the whole minute 2 to 3 minutes from now (the restart takes about 70 s), in the athlete's zone.
    const now = Date.now();
    quietEndMs = Math.ceil((now + 120_000) / 60_000) * 60_000;
    const config = await context.readConfig();
    const fitness = at(config, ["plugins", "entries", "fitness", "config"]) as Record<string, unknown>;
    fitness["debriefQuietHours"] = `${hhmm(now, athleteZone)}-${hhmm(quietEndMs, athleteZone)}`;
    await context.writeConfig(config);
    return `quiet hours ${String(fitness["debriefQuietHours"])} (${athleteZone}); ids ${created.map((activity) => activity.id).join(", ")}`;
  });
  if (!restarted || !(await startGateway(report, host, "the gateway starts again"))) return false;

  const held = await report.check("while quiet: no check, no model request, no message", async () => {
    const left = quietEndMs - Date.now();
    assert.ok(
      left > 2 * checkSeconds * 1000,
      `the gateway took too long to start: the quiet hours end ${Math.round(left / 1000)} s after it was ready`,
    );
    const asked = model.exchanges.length;
    const sent = sends(host);
    const lists = listRequests(services);
    await new Promise((resolve) => setTimeout(resolve, left - 1000));
    assert.equal(listRequests(services), lists, "a check was made during quiet hours");
    assert.equal(model.exchanges.length, asked, "the model was asked during quiet hours");
    assert.equal(sends(host), sent, "a message went out during quiet hours");
    return `${Math.round(left / 1000)} s of quiet watched`;
  });
  if (!held) return false;

  return await report.check(
    "after the quiet hours: one debrief names five of the six that came while the gateway was down and counts the sixth; no duplicate",
    async () => {
      const message = await waitForReply(host, /And 1 more\./, turnTimeoutMs);
      const seconds = (Date.now() - quietEndMs) / 1000;
      const text = plainText(message.text);
      const named = created.filter((activity) => text.includes(`${activity.name}:`));
      assert.equal(named.length, 5, `the combined debrief names ${named.length} activities:\n${text}`);
      // The newest five: the sixth-newest (the oldest start) is counted, not named.
      assert.ok(!text.includes(`${created.at(-1)?.name}:`), "the oldest of the six was named");
      await new Promise((resolve) => setTimeout(resolve, 3 * checkSeconds * 1000));
      const debriefs = bot.messages({ token }).filter((sent) => sent.text.includes(`${debriefWords.heading}:`));
      assert.equal(debriefs.length, 2, `debriefs in the chat: ${debriefs.map((sent) => plainText(sent.text).split("\n")[0]).join(" / ")}`);
      assert.equal(
        bot.messages({ token }).filter((sent) => sent.text.includes("Lunch Ride")).length,
        1,
        "the first activity was debriefed again after the restart",
      );
      return `${seconds.toFixed(1)} s after the quiet hours ended: "${text.split("\n").join(" | ")}"`;
    },
  );
}

async function athleteTurnsThemOff(report: CheckReport, host: DebriefHost, services: HostServices): Promise<void> {
  const { bot, model, token, context } = host;
  await report.check(
    "no one but the athlete can switch debriefs: the gateway's direct invoke for the coach finds no such tool",
    async () => {
      const before = await readRecord(context);
      const answer = await host.gateway?.invoke("fitness_debriefs", { debriefs: "off" }, coach);
      assert.notEqual(answer?.body.ok, true, `the direct invoke ran the switch: ${JSON.stringify(answer?.body).slice(0, 300)}`);
      assert.deepEqual((await readRecord(context))?.athleteChoice, before?.athleteChoice, "the record changed");
      return `HTTP ${answer?.status}: ${JSON.stringify(answer?.body.error ?? answer?.body).slice(0, 200)}`;
    },
  );
  const off = await report.check("the athlete asks the coach to stop: the plugin-only switch turns debriefs off", async () => {
    const asked = model.exchanges.length;
    bot.send(token, athleteSaysToCoach.stop);
    const reply = await waitForReply(host, /workout debriefs are off/);
    const turn = model.exchanges.slice(asked);
    assert.ok(
      turn[0]?.request.tools?.some((tool) => tool.function.name === "fitness_debriefs"),
      "the athlete's turn had no debrief switch",
    );
    assert.deepEqual(
      turn.flatMap((exchange) => exchange.reply.toolCalls ?? []),
      [{ name: "fitness_debriefs", arguments: { debriefs: "off" } }],
    );
    const record = await readRecord(context);
    assert.equal(record?.athleteChoice?.enabled, false);
    return `"${plainText(reply.text)}"; record: ${JSON.stringify(record?.athleteChoice)}`;
  });
  if (!off) return;
  await report.check("off: a new activity brings nothing, and no check is made", async () => {
    const asked = model.exchanges.length;
    const sent = sends(host);
    const lists = listRequests(services);
    const created = await createActivity(services, {
      name: "Morning Swim",
      sport_type: "Swim",
      minutesAgo: 20,
      elapsed: 2400,
      distance: 2000,
    });
    await new Promise((resolve) => setTimeout(resolve, 4 * checkSeconds * 1000));
    assert.equal(listRequests(services), lists, "a check was made while debriefs were off");
    assert.equal(model.exchanges.length, asked, "the model was asked while debriefs were off");
    assert.equal(sends(host), sent, "a message went out while debriefs were off");
    return `activity ${created.id} created; ${4 * checkSeconds} s later: 0 checks, 0 model requests, 0 messages`;
  });
}

interface CreatedActivity {
  id: number;
  name: string;
  start_date_local: string;
}

/** An activity as another app (a watch's sync) creates it: straight in the sandbox, with the plugin's access token. */
async function createActivity(
  services: HostServices,
  activity: { name: string; sport_type: string; minutesAgo: number; elapsed: number; distance: number },
): Promise<CreatedActivity> {
  const token = String((await services.readSecret())["access_token"]);
  const start = localTime(Date.now() - activity.minutesAgo * 60_000, athleteZone);
  const response = await fetch(`${services.sandbox.apiBase}/activities`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      name: activity.name,
      sport_type: activity.sport_type,
      start_date_local: start,
      elapsed_time: String(activity.elapsed),
      distance: String(activity.distance),
    }).toString(),
  });
  const text = await response.text();
  assert.equal(response.status, 201, `POST /activities: ${response.status} ${text}`);
  return JSON.parse(text) as CreatedActivity;
}

/** "2026-11-21T14:05:00Z": Strava's local wall time with its misleading Z. */
function localTime(instantMs: number, zone: string): string {
  const wall = wallClockAt(instantMs, zone);
  const two = (value: number): string => String(value).padStart(2, "0");
  return `${wall.year}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}:${two(wall.second)}Z`;
}

function hhmm(instantMs: number, zone: string): string {
  const wall = wallClockAt(instantMs, zone);
  return `${String(wall.hour).padStart(2, "0")}:${String(wall.minute).padStart(2, "0")}`;
}

const listRequests = (services: HostServices): number => services.sandbox.counters().byRoute[listRoute] ?? 0;
/** Messages the coach's bot has sent so far (a progress draft the host deletes later counts too: none may start). */
const sends = (host: DebriefHost): number =>
  host.bot.calls.filter((call) => call.token === host.token && call.method === "sendMessage").length;

interface DebriefRecord {
  baselined: boolean;
  seen: Record<string, number>;
  athleteChoice?: { enabled: boolean };
}

async function readRecord(context: HostContext): Promise<DebriefRecord | undefined> {
  try {
    return JSON.parse(await readFile(join(context.stateDir, "fitness", "debriefs.json"), "utf8")) as DebriefRecord;
  } catch {
    return undefined;
  }
}

/** The text of the last result of `tool` in the requests of one turn. */
function lastToolResult(requests: ModelRequest[], tool: string): string {
  for (const request of [...requests].reverse()) {
    const call = request.messages.flatMap((message) => message.tool_calls ?? []).findLast((candidate) => candidate.function.name === tool);
    const result = call && request.messages.find((message) => message.role === "tool" && message.tool_call_id === call.id);
    if (result) return messageText(result);
  }
  throw new Error(`the model never received a result of ${tool}`);
}

async function waitForReply(host: DebriefHost, pattern: RegExp, timeoutMs = turnTimeoutMs): Promise<BotMessage> {
  try {
    return await host.bot.waitFor(
      `a message matching ${pattern}`,
      () => host.bot.messages({ token: host.token }).find((message) => pattern.test(plainText(message.text))),
      timeoutMs,
    );
  } catch (error) {
    // What did happen, for the failure message: the chat's last messages, the model's last answers, the plugin's lines.
    const chat = host.bot
      .messages({ token: host.token })
      .slice(-3)
      .map((message) => plainText(message.text).slice(0, 300));
    const answers = host.model.exchanges.slice(-4).map((exchange) => JSON.stringify(exchange.reply).slice(0, 300));
    const plugin = (host.gateway?.output() ?? "")
      .split("\n")
      .filter((line) => line.includes("debrief"))
      .slice(-6);
    throw new Error(
      `${(error as Error).message}\nchat: ${JSON.stringify(chat)}\nmodel: ${answers.join(" / ")}\nplugin: ${plugin.join("\n")}`,
      { cause: error },
    );
  }
}

async function waitUntil(what: string, condition: () => unknown, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function at(root: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), root);
}

/** What the athlete reads: the host sends Telegram HTML (tags, entities). */
function plainText(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}
