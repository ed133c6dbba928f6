/**
 * The fitness plugin as an npm package: `npm pack` (compiled JavaScript in dist/), installed by the
 * host with `openclaw plugins install npm-pack:<tarball>`, then inspected and called through a
 * gateway. Packing and installing happen in `prepare`, with the network (the host's managed npm
 * project fetches the package's dependencies, as it does for any operator); everything after runs
 * offline on that installed host.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { HostCheckModule } from "../host-check-module.ts";
import type { CommandResult, RunningGateway } from "../host-context.ts";
import { packPlugin, type PackedPlugin } from "../plugin-package.ts";
import { checkAgents, fitnessHostConfig } from "../fitness-host-config.ts";
import { inspectFitness, invokeResultJson } from "../fitness-plugin-assertions.ts";
import { tail } from "../host-context.ts";

interface PreparedPackage {
  packed: PackedPlugin;
  hostDir: string;
  install: Pick<CommandResult, "code" | "stdout" | "stderr" | "ms">;
}

const module: HostCheckModule = {
  title: "fitness plugin installed from an npm package (compiled JavaScript)",
  async prepare({ repoRoot, dir, withHost }): Promise<PreparedPackage> {
    const packed = await packPlugin(repoRoot, dir);
    const hostDir = join(dir, "host");
    const install = await withHost(
      async (context) => {
        // No plugins entry yet: an entry for a plugin whose package is missing makes the host hold
        // the install back ("data/settings upgrade is unfinished").
        await context.writeConfig({ ...context.baseConfig(), plugins: { slots: { memory: "none" } } });
        return context.run(["plugins", "install", `npm-pack:${packed.tarball}`, "--force", "--accept-capabilities"], {
          timeoutMs: 300_000,
        });
      },
      { dir: hostDir },
    );
    return {
      packed,
      hostDir,
      install: { code: install.code, stdout: tail(install.stdout, 15), stderr: tail(install.stderr, 15), ms: install.ms },
    };
  },

  async run({ services, report, withHost, prepared }) {
    if (!prepared?.ok) {
      report.blocked("npm pack and plugins install npm-pack:", `the preparation failed: ${prepared ? prepared.error : "not run"}`);
      return;
    }
    const { packed, hostDir, install } = prepared.value as PreparedPackage;

    await report.check("npm pack ships compiled JavaScript, the manifest and the skill, and no TypeScript sources", async () => {
      const files = new Set(packed.files);
      for (const required of [
        "package.json",
        "openclaw.plugin.json",
        "dist/index.js",
        "dist/plugin/host-tool.js",
        "dist/tools/table.js",
        "skills/fitness-coaching/SKILL.md",
        // The MCP server's bin and what it loads before the built server (its build check, its heap settings).
        "mcp-adapter/start.mjs",
        "mcp-adapter/heap-settings.mjs",
        "common/built-artifacts.mjs",
      ]) {
        assert.ok(files.has(required), `${required} is missing from the package`);
      }
      const sources = packed.files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
      assert.deepEqual(sources, [], "TypeScript sources in the package");
      assert.ok(!packed.files.some((file) => file.startsWith("test/")), "tests in the package");
      return `${packed.files.length} files in ${packed.tarball.split("/").pop()}`;
    });

    await withHost(async (context) => {
      // The host's authoring commands read the metadata defineToolPlugin (or defineFeaturePlugin) attaches to
      // an entry. This plugin's entry is not one: it registers a before_tool_call hook (write approval) and a
      // service (the token settle on stop) besides its tools, which defineToolPlugin cannot carry. So both
      // commands must refuse it for that reason and no other; the day a host validates such plugins, this
      // check fails and says to adopt the commands.
      await report.check(
        "openclaw plugins validate / build --check: refuse this entry only because defineToolPlugin did not make it",
        async () => {
          const outcomes: string[] = [];
          for (const args of [
            ["plugins", "validate", "--root", packed.root, "--entry", "./dist/index.js", "--json"],
            ["plugins", "build", "--root", packed.root, "--entry", "./dist/index.js", "--check"],
          ]) {
            const result = await context.run(args, { timeoutMs: 120_000 });
            const output = `${result.stdout}\n${result.stderr}`;
            assert.notEqual(result.code, 0, `${args.slice(0, 2).join(" ")} accepted the plugin:\n${tail(output, 10)}`);
            assert.match(output, /does not expose tool or feature authoring metadata: \.\/dist\/index\.js/, tail(output, 10));
            outcomes.push(`${args[1]} exit ${result.code}`);
          }
          return `${outcomes.join(", ")}: not a defineToolPlugin entry`;
        },
      );
    });

    await withHost(
      async (context) => {
        const installed = await report.check(
          "openclaw plugins install npm-pack:<tarball> installed and enabled it (run before the offline checks)",
          async () => {
            assert.equal(install.code, 0, `${install.stdout}\n${install.stderr}`);
            assert.match(install.stdout, /Installed plugin: fitness/);
            const config = (await context.readConfig()) as { plugins?: { entries?: { fitness?: { enabled?: boolean } } } };
            assert.equal(config.plugins?.entries?.fitness?.enabled, true, "the installed plugin is not enabled");
            return `in ${(install.ms / 1000).toFixed(1)} s`;
          },
        );
        if (!installed) return;

        // Configure it as an operator would: allow it, point it at the secret, add the check agents.
        const wanted = fitnessHostConfig(context, services);
        const written = (await context.readConfig()) as {
          plugins: Record<string, unknown> & { entries: Record<string, Record<string, unknown>> };
        };
        const fitnessEntry = (wanted["plugins"] as { entries: { fitness: { config: unknown } } }).entries.fitness;
        written.plugins["allow"] = ["fitness"];
        written.plugins.entries["fitness"] = { ...written.plugins.entries["fitness"], config: fitnessEntry.config };
        await context.writeConfig({ ...written, agents: wanted["agents"] });

        const loaded = await report.check(
          "openclaw plugins inspect fitness --runtime --json (installed package): loaded from dist/index.js",
          () => inspectFitness(context, join("dist", "index.js")),
        );
        if (!loaded) return;

        let gateway: RunningGateway | undefined;
        const started = await report.check(
          "a gateway runs the installed package's fitness_get_athlete, refreshing into the secret",
          async () => {
            // Drop the access token so the compiled code refreshes and writes back too.
            await services.reseedSecret();
            const before = String((await services.readSecret())["refresh_token"]);
            gateway = await context.startGateway();
            const athlete = invokeResultJson(
              await gateway.invoke("fitness_get_athlete", {}, checkAgents.allowed),
              "fitness_get_athlete",
            ) as { id: number };
            assert.equal(athlete.id, services.sandbox.athleteId);
            const after = await services.readSecret();
            assert.notEqual(after["refresh_token"], before, "the refresh token was not rotated");
            assert.equal(after["refresh_token"], services.sandbox.refreshToken());
            assert.equal(typeof after["access_token"], "string");
          },
        );
        if (started && gateway) await gateway.stop();
      },
      { dir: hostDir },
    );
  },
};

export default module;
