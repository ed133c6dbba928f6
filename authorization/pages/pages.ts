/**
 * The pages an athlete sees during a sign-in: the consent page that names the client and what it may
 * do, the refusal for an athlete this deployment does not serve, and the error pages for requests that
 * cannot be sent back to the client. Plain HTML with inline styles, no scripts, nothing loaded from
 * elsewhere; every value is escaped. They are served with a Content-Security-Policy that allows no
 * script, no framing (the consent page cannot be clickjacked) and form posts only to this server (and
 * the redirect after it to Strava's sign-in).
 *
 * Text from elsewhere (a client's name, its hosts, an athlete's name) is cleaned (display-text.ts) and
 * isolated in `<bdi>`, so that it cannot reorder the words around it. Error pages say only this server's
 * own words, never a client_id or parameter from the request, so that a link to this server cannot make it
 * say what its sender wants; beside a link back to a client they show where it leads.
 */
import { cleanDisplayText } from "./display-text.ts";

export interface PageAnswerOptions {
  status: number;
  /** Origins a form on the page may end up at (after this server's redirect). */
  formTargets?: string[];
  headers?: Record<string, string>;
}

export function pageAnswer(html: string, options: PageAnswerOptions): Response {
  const formAction = ["'self'", ...(options.formTargets ?? [])].join(" ");
  return new Response(html, {
    status: options.status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      ...options.headers,
    },
  });
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

/** Text from elsewhere (a client, Strava): cleaned, escaped and isolated, so that it can neither hide nor move what is beside it. */
function isolated(value: string): string {
  return `<bdi>${escapeHtml(cleanDisplayText(value, 200))}</bdi>`;
}

const style = `
  :root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #dde1e8; --accent: #fc4c02; --ok: #1f7a4d; --bad: #b3261e; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f4f5f7; }
  main { max-width: 34rem; margin: 3rem auto; background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 2rem; }
  h1 { font-size: 1.35rem; margin: 0 0 1rem; line-height: 1.3; }
  p { margin: 0 0 1rem; }
  .muted { color: var(--muted); font-size: 0.92rem; }
  .client { font-weight: 650; }
  .unverified { display: inline-block; font-size: 0.8rem; color: var(--bad); border: 1px solid var(--bad); border-radius: 4px; padding: 0 0.35rem; margin-left: 0.3rem; vertical-align: 1px; }
  ul { padding-left: 1.2rem; margin: 0 0 1rem; }
  li { margin: 0.25rem 0; }
  label.choice { display: flex; gap: 0.6rem; align-items: flex-start; border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem; margin: 0 0 1.2rem; }
  label.choice input { margin-top: 0.3rem; }
  .actions { display: flex; gap: 0.75rem; flex-wrap: wrap; }
  button { font: inherit; border-radius: 8px; padding: 0.6rem 1.2rem; cursor: pointer; border: 1px solid var(--line); background: #fff; color: var(--ink); }
  button.primary { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
  code { font-size: 0.9em; background: #f1f2f5; padding: 0.05rem 0.3rem; border-radius: 4px; word-break: break-all; }
  a.back { display: inline-block; border-radius: 8px; padding: 0.6rem 1.2rem; border: 1px solid var(--line); color: var(--ink); text-decoration: none; }
  .badge { font-size: 0.8rem; letter-spacing: 0.04em; text-transform: uppercase; color: var(--muted); margin-bottom: 0.4rem; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
<div class="badge">openclaw-fitness · Strava training log</div>
${body}
</main>
</body>
</html>
`;
}

export interface ConsentPageInput {
  clientName: string;
  /** Where the name comes from, shown beside it: the document's host, or "unverified" for a registration. */
  clientHost: string;
  verified: boolean;
  redirectHost: string;
  wantsWrite: boolean;
  /** The signed, checked request and the form's anti-forgery value. */
  request: string;
  csrf: string;
  action: string;
}

export function consentPage(input: ConsentPageInput): string {
  const name = `<span class="client">${isolated(input.clientName)}</span>`;
  const origin = input.verified
    ? `<span class="muted">(${isolated(input.clientHost)})</span>`
    : `<span class="unverified" title="The name was given by the client when it registered and is not checked">unverified name</span>`;
  const writeChoice = input.wantsWrite
    ? `<label class="choice"><input type="checkbox" name="allow_write" value="yes" checked><span><strong>Also allow changes</strong>: create activities, update titles, descriptions and sport types, and upload activity files. Untick to give read-only access.</span></label>`
    : `<p class="muted">${name} asked for read-only access: it cannot change anything.</p>`;
  return layout(
    `Allow ${input.clientName} to use your Strava training log?`,
    `<h1>Allow ${name} ${origin} to use your Strava training log?</h1>
<p>If you continue, ${name} can, through this server:</p>
<ul>
<li>read your activities, their details, laps, zones and streams</li>
<li>read your athlete profile and statistics</li>
</ul>
${writeChoice}
<p class="muted">Next you sign in with Strava, which asks you to allow this server. Afterwards you go back to <code>${isolated(input.redirectHost)}</code>. You can disconnect at any time: revoke this server's access in Strava's settings (My Apps), or remove the connector in ${name}.</p>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="request" value="${escapeHtml(input.request)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<div class="actions">
<button class="primary" type="submit" name="decision" value="allow">Continue with Strava</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</div>
</form>`,
  );
}

export function refusalPage(input: { athleteName: string; athleteId: string }): string {
  return layout(
    "This server does not serve your Strava account",
    `<h1>This server does not serve your Strava account</h1>
<p>You signed in with Strava as <strong>${isolated(input.athleteName)}</strong> (athlete ${escapeHtml(input.athleteId)}), but this server only serves the athletes its owner admitted, and you are not one of them.</p>
<p>Nothing was stored, and the access you gave this server on Strava's page has been withdrawn again.</p>
<p class="muted">If this is your own server, add your athlete id to <code>MCP_ATHLETES</code> and sign in again. If you signed in with the wrong Strava account, sign out at strava.com and start again from your app.</p>`,
  );
}

export interface ErrorPageInput {
  title: string;
  message: string;
  hint?: string;
  /**
   * The way back to the client with the error (its redirect URI with `error`, `state` and `iss`), as a link
   * the person follows, and where it leads (the redirect URI's origin, or an app's scheme).
   */
  backToClient?: { href: string; destination: string };
}

export function errorPage(input: ErrorPageInput): string {
  const back = input.backToClient
    ? `<p><a class="back" href="${escapeHtml(input.backToClient.href)}" rel="noreferrer">Return to the app</a></p>
<p class="muted">The link takes you back to <code>${isolated(input.backToClient.destination)}</code> and tells the app what went wrong; nothing was shared with it.</p>`
    : "";
  return layout(
    input.title,
    `<h1>${escapeHtml(input.title)}</h1>
<p>${escapeHtml(input.message)}</p>
${input.hint ? `<p class="muted">${escapeHtml(input.hint)}</p>` : ""}
${back}`,
  );
}
