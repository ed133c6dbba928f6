/**
 * The fitness plugin loaded by the real host from a local path (TypeScript entry), end to end:
 * config validation, runtime inspection, and tool calls through a loopback gateway against the
 * sandbox, with the credentials secret in moto_server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { HostCheckModule } from "../host-check-module.ts";
import type { RunningGateway } from "../host-context.ts";
import { copyPluginCheckout } from "../plugin-package.ts";
import { checkAgents, fitnessHostConfig } from "../fitness-host-config.ts";
import { expectedOptionalTools, expectedRegisteredTools, inspectFitness, invokeResultJson } from "../fitness-plugin-assertions.ts";

const module: HostCheckModule = {
  title: "fitness plugin from a local path (TypeScript entry)",
  async run({ repoRoot, services, report, withHost }) {
    await withHost(async (context) => {
      const pluginDir = await copyPluginCheckout(repoRoot, join(context.dir, "openclaw-fitness"));
      const config = fitnessHostConfig(context, services, { loadPaths: [pluginDir] });
      await context.writeConfig(config);

      await report.check("openclaw config validate accepts a config that enables the plugin", async () => {
        const { result, json } = await context.runJson<{ valid: boolean; warnings?: Array<{ path: string; message: string }> }>([
          "config",
          "validate",
          "--json",
        ]);
        assert.equal(json.valid, true, result.stdout);
        // Warnings about the plugin (stale entry, unknown id, schema) would mean the host does not see it as configured.
        const ours = (json.warnings ?? []).filter((warning) => warning.path.startsWith("plugins") || /fitness/i.test(warning.message));
        assert.deepEqual(ours, [], "warnings about the plugin");
        const others = (json.warnings ?? []).map((warning) => `${warning.path}: ${warning.message}`);
        return others.length > 0 ? `other warnings: ${others.join("; ")}` : undefined;
      });

      await report.check(
        "openclaw config validate rejects an unknown plugin config key, a malformed region and a secret name the plugin would refuse",
        async () => {
          const badPath = join(context.dir, "bad.json");
          const bad = structuredClone(config) as { plugins: { entries: { fitness: { config: Record<string, unknown> } } } };
          bad.plugins.entries.fitness.config = { secretName: "my secret", cloudRegion: "Oregon", apiKey: "x" };
          await context.writeConfig(bad as unknown as Record<string, unknown>, badPath);
          const { result, json } = await context.runJson<{ valid: boolean; issues?: unknown; errors?: unknown }>(
            ["config", "validate", "--json"],
            {
              env: { OPENCLAW_CONFIG_PATH: badPath },
            },
          );
          assert.equal(json.valid, false, "an invalid plugin config was accepted");
          const text = result.stdout;
          assert.match(text, /plugins\.entries\.fitness\.config/);
          assert.match(text, /apiKey/);
          assert.match(text, /cloudRegion/);
          assert.match(text, /secretName/);
        },
      );

      const loaded = await report.check(
        "openclaw plugins inspect fitness --runtime --json: loaded, the 11 tools and the debrief switch, write tools optional, no diagnostics",
        () => inspectFitness(context, join(pluginDir, "index.ts")),
      );

      await report.check("openclaw skills list shows the plugin's fitness-coaching skill", async () => {
        const { result, json } = await context.runJson<unknown>(["skills", "list", "--agent", checkAgents.allowed, "--json"]);
        const skill = collect(json, (entry) => entry["name"] === "fitness-coaching" || entry["id"] === "fitness-coaching")[0];
        assert.ok(skill, `fitness-coaching not listed: ${result.stdout.slice(0, 800)}`);
        return JSON.stringify(skill).slice(0, 200);
      });

      if (!loaded) {
        report.blocked("gateway checks", "the plugin did not load");
        return;
      }

      let gateway: RunningGateway | undefined;
      const started = await report.check("openclaw gateway run on loopback (token auth) becomes ready with the plugin", async () => {
        gateway = await context.startGateway();
        return gateway.url;
      });
      if (!started || !gateway) return;
      const live = gateway;
      const { sandbox } = services;

      await report.check("POST /tools/invoke fitness_get_athlete returns the athlete from the upstream", async () => {
        const athlete = invokeResultJson(await live.invoke("fitness_get_athlete", {}, checkAgents.allowed), "fitness_get_athlete") as {
          id: number;
          firstname: string;
        };
        assert.equal(athlete.id, sandbox.athleteId);
        return `athlete ${athlete.id} (${athlete.firstname})`;
      });

      const putsSoFar = (): number => sandbox.counters().byRoute["PUT /activities/{id}"] ?? 0;
      await report.check(
        "POST /tools/invoke fitness_update_activity is held for approval; with nobody to ask, the host refuses it and nothing is written",
        async () => {
          const [latest] = invokeResultJson(
            await live.invoke("fitness_get_activities", { per_page: 1 }, checkAgents.allowed),
            "fitness_get_activities",
          ) as Array<{ id: number }>;
          assert.ok(latest, "no activity to update");
          const before = putsSoFar();
          const answer = await live.invoke(
            "fitness_update_activity",
            { id: latest.id, name: "Never approved", sport_type: "Workout" },
            checkAgents.allowed,
          );
          assert.equal(answer.status, 403, JSON.stringify(answer.body).slice(0, 400));
          assert.equal(answer.body.error?.type, "tool_call_blocked");
          assert.equal(answer.body.error?.requiresApproval, true);
          assert.equal(putsSoFar(), before, "an update reached the upstream without approval");
          return answer.body.error?.message;
        },
      );

      await report.check(
        'with writeApproval "chat" (the setting that turns the host\'s approval off), POST /tools/invoke fitness_update_activity changes the activity upstream',
        async () => {
          // Applied by the running gateway: a plugin config change re-registers the plugin (hybrid reload).
          const relaxed = structuredClone(config) as { plugins: { entries: { fitness: { config: Record<string, unknown> } } } };
          relaxed.plugins.entries.fitness.config["writeApproval"] = "chat";
          await context.writeConfig(relaxed as unknown as Record<string, unknown>);
          const name = `Host check | ${new Date().toISOString().slice(0, 19)}`;
          const started = performance.now();
          // The gateway applies the change by reloading the plugin (it may restart): until then calls fail or are still held.
          let latest: { id: number } | undefined;
          let answer: Awaited<ReturnType<RunningGateway["invoke"]>> | undefined;
          while (performance.now() - started < 180_000) {
            try {
              latest ??= (
                invokeResultJson(
                  await live.invoke("fitness_get_activities", { per_page: 1 }, checkAgents.allowed),
                  "fitness_get_activities",
                ) as Array<{ id: number }>
              )[0];
              if (latest)
                answer = await live.invoke("fitness_update_activity", { id: latest.id, name, sport_type: "Workout" }, checkAgents.allowed);
            } catch {
              answer = undefined; // not answering while it reloads
            }
            if (answer?.status === 200) break;
            await new Promise((resolve) => setTimeout(resolve, 2000));
          }
          assert.ok(latest && answer, `no answer within 180 s of the config change`);
          const updated = invokeResultJson(answer, "fitness_update_activity") as { id: number; name: string; sport_type: string };
          assert.deepEqual(
            { id: updated.id, name: updated.name, sport_type: updated.sport_type },
            { id: latest.id, name, sport_type: "Workout" },
          );
          // Read it back from the upstream itself, with the token the plugin wrote into the secret.
          const token = (await services.readSecret())["access_token"];
          const direct = await fetch(`${sandbox.apiBase}/activities/${latest.id}`, {
            headers: { authorization: `Bearer ${String(token)}` },
          });
          assert.equal(direct.status, 200);
          const upstream = (await direct.json()) as { name: string; sport_type: string };
          assert.deepEqual({ name: upstream.name, sport_type: upstream.sport_type }, { name, sport_type: "Workout" });
          return `activity ${latest.id} is now "${name}" (the reload took ${((performance.now() - started) / 1000).toFixed(0)} s)`;
        },
      );

      await report.check("on the direct invoke path (no host validation) the plugin rejects bad arguments before any request", async () => {
        const before = sandbox.counters().apiRequests;
        const answer = await live.invoke("fitness_get_activity_by_id", { id: "twelve" }, checkAgents.allowed);
        assert.equal(answer.status, 200);
        const result = answer.body.result;
        assert.equal(result?.isError, true);
        assert.match(result?.content?.[0]?.text ?? "", /^Error: Invalid arguments for get_activity_by_id: id must be an integer/);
        assert.deepEqual(result?.details, { tool: "fitness_get_activity_by_id", isError: true, ok: false });
        assert.equal(sandbox.counters().apiRequests, before, "a request reached the upstream");
      });

      await report.check(
        "the gateway's tools.catalog lists the 11 tools and the debrief switch as the plugin's, the write tools optional",
        async () => {
          const catalog = await live.call("tools.catalog", { agentId: checkAgents.allowed });
          const tools = collect(catalog, (entry) => typeof entry["id"] === "string" && (entry["id"] as string).startsWith("fitness_"));
          assert.deepEqual(tools.map((tool) => tool["id"]).sort(), [...expectedRegisteredTools].sort());
          for (const tool of tools) assert.equal(tool["pluginId"], "fitness", `${String(tool["id"])} pluginId`);
          const optional = tools.filter((tool) => tool["optional"] === true).map((tool) => tool["id"]);
          assert.deepEqual(optional.sort(), [...expectedOptionalTools].sort());
        },
      );

      await report.check("an agent whose tool allow list leaves out the plugin cannot invoke its tools", async () => {
        const answer = await live.invoke("fitness_get_athlete", {}, checkAgents.denied);
        assert.equal(answer.status, 404, JSON.stringify(answer.body).slice(0, 300));
      });

      await report.check("the credentials secret holds the rotated refresh token and the new access token", async () => {
        const secret = await services.readSecret();
        assert.equal(secret["client_id"], sandbox.clientId);
        assert.equal(secret["client_secret"], sandbox.clientSecret);
        assert.notEqual(secret["refresh_token"], services.seededRefreshToken, "the refresh token was not replaced");
        assert.equal(secret["refresh_token"], sandbox.refreshToken(), "the secret's refresh token is not the one that works now");
        assert.equal(typeof secret["access_token"], "string");
        assert.ok(Number(secret["expires_at"]) > Date.now() / 1000 + 3600, "expires_at is not in the future");
      });

      await live.stop();
    });
  },
};

export default module;

/** Every object anywhere in `value` that `matches`. */
function collect(
  value: unknown,
  matches: (entry: Record<string, unknown>) => boolean,
  found: Array<Record<string, unknown>> = [],
): Array<Record<string, unknown>> {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, matches, found);
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    if (matches(record)) found.push(record);
    for (const item of Object.values(record)) collect(item, matches, found);
  }
  return found;
}
