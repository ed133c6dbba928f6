/**
 * A person's browser without a browser, for the end-to-end tests of OAuth mode: it follows an
 * authorization URL through the server's consent page (submitting its form as a person would press
 * Continue or Cancel, with the cookies the server set), Strava's (the sandbox's) authorize page, which
 * approves at once for whoever is signed in there, and the server's callback, until the server sends
 * it to the client's redirect URI, or shows a page instead (a refusal, an error). It never follows an error
 * page's link back to the client by itself: a test does, with `linkBackToClient`, as a person would. It goes
 * over the network unless given the `fetch` of a server in the test's own process (test/support/oauth-in-process.ts).
 */
export interface UserAgentOutcome {
  /** The client's redirect URI with the answer's parameters, when the flow got back to the client. */
  callback?: URL;
  /** The page the flow stopped at instead. */
  page?: { status: number; html: string; url: string };
  /** Every URL visited, in order (for messages). */
  visited: string[];
}

export class HeadlessUserAgent {
  readonly #cookies = new Map<string, Map<string, string>>();
  readonly #fetch: typeof fetch;

  constructor(fetcher: typeof fetch = fetch) {
    this.#fetch = fetcher;
  }

  async authorize(
    authorizationUrl: URL | string,
    options: {
      redirectUri: string;
      decision?: "allow" | "deny";
      allowWrite?: boolean;
      /** Runs on the consent page before it is answered (a test may make the person take their time). */
      beforeConsent?: (html: string) => unknown;
    },
  ): Promise<UserAgentOutcome> {
    const visited: string[] = [];
    let next: { url: string; init: RequestInit } = { url: String(authorizationUrl), init: { method: "GET" } };
    for (let hop = 0; hop < 12; hop++) {
      visited.push(`${next.init.method} ${next.url}`);
      const response = await this.#fetch(next.url, {
        ...next.init,
        redirect: "manual",
        headers: { ...(next.init.headers as Record<string, string>), cookie: this.#cookieHeader(next.url) },
      });
      this.#remember(next.url, response.headers.getSetCookie());
      if (response.status >= 300 && response.status < 400) {
        await response.arrayBuffer();
        const location = new URL(response.headers.get("location") ?? "", next.url);
        if (location.toString().startsWith(options.redirectUri)) return { callback: location, visited };
        next = { url: location.toString(), init: { method: "GET" } };
        continue;
      }
      const html = await response.text();
      const form = /<form method="post" action="([^"]+)">/.exec(html);
      if (response.status === 200 && form) {
        await options.beforeConsent?.(html);
        const field = (name: string): string => decode(new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "");
        const body = new URLSearchParams({ request: field("request"), csrf: field("csrf"), decision: options.decision ?? "allow" });
        if (options.allowWrite !== false && html.includes('name="allow_write"')) body.set("allow_write", "yes");
        next = {
          url: decode(form[1] as string),
          init: { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } },
        };
        continue;
      }
      return { page: { status: response.status, html, url: next.url }, visited };
    }
    throw new Error(`Too many redirects: ${visited.join(" -> ")}`);
  }

  #remember(url: string, setCookies: string[]): void {
    const origin = new URL(url).origin;
    const jar = this.#cookies.get(origin) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...value] = (pair ?? "").trim().split("=");
      if (!name) continue;
      if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))) jar.delete(name);
      else jar.set(name, value.join("="));
    }
    this.#cookies.set(origin, jar);
  }

  #cookieHeader(url: string): string {
    const jar = this.#cookies.get(new URL(url).origin);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join("; ") : "";
  }
}

/** The link an error page offers back to the client (its redirect URI with the error), which a person would click. */
export function linkBackToClient(html: string): URL | undefined {
  const href = /<a class="back" href="([^"]+)"/.exec(html)?.[1];
  return href === undefined ? undefined : new URL(decode(href));
}

function decode(html: string): string {
  return html
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
