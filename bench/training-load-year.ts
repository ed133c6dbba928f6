/**
 * The training-load summary's size and upstream requests across a year of clock dates: the sandbox's athlete is
 * generated relative to the clock, so what its default twelve weeks hold (and so the answer's tokens) moves with
 * the season. For each date, every `step` days from the suite's pinned instant, a sandbox on that clock and the
 * real core answer `get_activities` with `summary: true` (and once, at the first date, a 366-day window). Tokens
 * are counted with js-tiktoken's o200k_base, as bench/agent-context.ts counts them.
 *
 *   npx tsx bench/training-load-year.ts [step=7]     # prints a Markdown table for BENCHMARKS.md
 *
 * Run by hand; figures in BENCHMARKS.md. Nothing here is timed.
 */
import { cpus, totalmem } from "node:os";
import { getEncoding } from "js-tiktoken";
import { fileBackedCore, textOf } from "../test/support/core-harness.ts";
import { openSession } from "../test/sandbox/sandbox-client.ts";
import { manualClock, testNow } from "../test/support/test-clock.ts";
import type { TrainingLoadAnswer } from "../tools/training-load/training-load-answer.ts";

const step = Number(process.argv[2] ?? 7);
const dayMs = 86_400_000;
const encoding = getEncoding("o200k_base");

interface Row {
  date: string;
  tokens: number;
  requests: number;
}

async function summarize(nowMs: number, args: Record<string, unknown>): Promise<{ text: string; requests: number }> {
  const clock = manualClock(nowMs);
  const session = await openSession({ clock: clock.now, rotateRefreshTokens: false });
  const core = await fileBackedCore({
    credentials: {
      client_id: session.sandbox.clientId,
      client_secret: session.sandbox.clientSecret,
      refresh_token: session.sandbox.refreshToken(),
    },
    settings: { apiBase: session.sandbox.apiBase, tokenUrl: session.sandbox.tokenUrl },
    now: clock.now,
  });
  try {
    const text = textOf(await core.call("get_activities", { summary: true, ...args }));
    return { text, requests: (JSON.parse(text) as TrainingLoadAnswer).window.upstream_requests };
  } finally {
    await core.cleanup();
    await session.sandbox.close();
  }
}

const rows: Row[] = [];
for (let day = 0; day <= 365; day += step) {
  const nowMs = testNow + day * dayMs;
  const { text, requests } = await summarize(nowMs, {});
  rows.push({ date: new Date(nowMs).toISOString().slice(0, 10), tokens: encoding.encode(text).length, requests });
}
const year = await summarize(testNow, { after: Math.floor(testNow / 1000) - 365 * 86_400 });

const n = (value: number): string => value.toLocaleString("en-US");
console.log(`Machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
console.log(`Default window, ${rows.length} clock dates every ${step} days from ${rows[0]?.date}:\n`);
console.log("| Date | Tokens | Upstream requests |");
console.log("|---|---:|---:|");
for (const row of rows) console.log(`| ${row.date} | ${n(row.tokens)} | ${row.requests} |`);
const over = rows.filter((row) => row.tokens > 3_000);
console.log(
  `\nTokens ${n(Math.min(...rows.map((row) => row.tokens)))} to ${n(Math.max(...rows.map((row) => row.tokens)))}; over 3,000 on ${over.length} of ${rows.length} dates` +
    `${over.length > 0 ? ` (${over[0]?.date} to ${over.at(-1)?.date})` : ""}; requests ${Math.min(...rows.map((row) => row.requests))} to ${Math.max(...rows.map((row) => row.requests))}.`,
);
console.log(`366-day window on ${rows[0]?.date}: ${n(encoding.encode(year.text).length)} tokens, ${year.requests} upstream requests.`);
