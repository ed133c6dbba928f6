/**
 * The view side of the MCP Apps protocol, shared by both views, through the ext-apps SDK's `App`: it
 * connects to the host, takes the tool's arguments and its text result (the same text a client without Apps
 * shows), follows the host's theme and locale, and draws again when the result, the context or the width
 * changes. A view never calls a tool or sends a message: every call would spend the athlete's Strava budget.
 */
import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";

export interface ViewState {
  /** The tool call's arguments, once the host sent them. */
  args: Record<string, unknown> | undefined;
  /** The tool's text result, once it came; `isError` for an error result. */
  result: { text: string; isError: boolean } | undefined;
  cancelled: boolean;
  /** The host's locale (for units), when it says. */
  locale: string | undefined;
  /** The width to draw in, in CSS pixels. */
  width: number;
}

export type Render = (root: HTMLElement, state: ViewState) => void;

export function startView(name: string, render: Render): void {
  const root = document.getElementById("view");
  if (root === null) return;
  const state: ViewState = { args: undefined, result: undefined, cancelled: false, locale: undefined, width: root.clientWidth };
  let drawn = "";
  const draw = (): void => {
    if (state.result === undefined && !state.cancelled) return;
    // Same data and width: nothing to redraw (the host re-sends its context; the page resizes with the host).
    const key = JSON.stringify([state.result, state.cancelled, state.locale, state.width, state.args]);
    if (key === drawn) return;
    drawn = key;
    try {
      render(root, state);
    } catch (error) {
      root.replaceChildren(message("This view could not draw the answer.", error instanceof Error ? error.message : String(error)));
    }
  };
  const follow = (context: McpUiHostContext | undefined): void => {
    // A host that says no theme: the device's own preference.
    applyDocumentTheme(context?.theme ?? (window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
    if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
    if (context?.locale) state.locale = context.locale;
  };

  const app = new App({ name: `openclaw-fitness-${name}-view`, version: "1.0.0" }, {});
  app.ontoolinput = (params) => {
    state.args = params.arguments ?? {};
    draw();
  };
  app.ontoolresult = (result) => {
    const text = result.content?.find((item) => item.type === "text");
    state.result = { text: text?.type === "text" ? text.text : "", isError: result.isError === true };
    draw();
  };
  app.ontoolcancelled = () => {
    state.cancelled = true;
    draw();
  };
  app.onhostcontextchanged = (context) => {
    follow(context);
    draw();
  };
  new ResizeObserver(() => {
    const width = Math.round(root.clientWidth);
    if (width === state.width || width === 0) return;
    state.width = width;
    draw();
  }).observe(root);
  void app.connect().then(() => {
    follow(app.getHostContext());
    draw();
  });
}

/** A short message in the view: a heading and a sentence. */
export function message(heading: string, detail: string): HTMLElement {
  const box = document.createElement("section");
  box.className = "message";
  const title = document.createElement("h2");
  title.textContent = heading;
  const text = document.createElement("p");
  text.textContent = detail;
  box.append(title, text);
  return box;
}

/** The error result or the cancellation, said plainly; undefined when there is data to draw. */
export function notDrawable(state: ViewState): HTMLElement | undefined {
  if (state.cancelled && state.result === undefined) return message("The call was cancelled", "Nothing came back to draw.");
  if (state.result?.isError) return message("The tool answered with an error", state.result.text.replace(/^Error: /, ""));
  return undefined;
}

/** `tag` with a class and text. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
