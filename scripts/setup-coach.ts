/**
 * npm run setup:coach -- --workspace DIR --config FILE [--sandbox docker|ssh|off ...] [--telegram-user-id ID]
 *                        [--credentials secrets-manager|token-file [--token-file PATH]] [--debriefs 15m|off]
 *                        [--agent-id coach] [--dry-run] [--schedule [--openclaw-bin PATH]]
 *
 * First checks that this machine can run the sandbox the coach would get (the --sandbox choice, else
 * the one the config already gives it, else Docker), and says what will and will not work before
 * anything is written. Then installs the coach agent's workspace files and
 * memory templates (never overwriting a file), merges the coach's host config fragment into an
 * OpenClaw config file (backup first, only when something changes; a second run changes nothing),
 * and prints what it did and what is left to do, with where the plugin reads the Strava credentials
 * (a token file named there is checked: it exists, mode 0600).
 */
import { runSetupCommand } from "./setup-coach/setup-command.ts";

process.exitCode = await runSetupCommand(process.argv.slice(2), {
  env: process.env,
  out: (text) => console.log(text),
  err: (text) => console.error(text),
});
