/* global document, window */
/**
 * A minimal MCP Apps host for the browser tests of the views, built on the ext-apps SDK's own host side
 * (`AppBridge` over `PostMessageTransport`): it loads a view's HTML into a sandboxed iframe (scripts only,
 * an opaque origin, as hosts do), answers its `ui/initialize` with a host context (theme, locale, size),
 * sends the tool's arguments and its result, sizes the iframe as the view asks, and records every tool call
 * the view attempts (refused: a view must never call one). Plain browser JavaScript, bundled by esbuild for
 * the page (test/mcp-adapter/app-views-in-browser.test.ts).
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

window.showView = async function showView({ html, args, result, hostContext }) {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.setAttribute("title", "MCP App view");
  frame.style.cssText = "display:block;border:0;width:100%;height:200px";
  document.body.replaceChildren(frame);
  const attempts = { toolCalls: [], messages: [], links: [] };
  window.viewAttempts = attempts;

  const bridge = new AppBridge(null, { name: "views-test-host", version: "1.0.0" }, { openLinks: {}, serverTools: {} }, { hostContext });
  bridge.oncalltool = async (params) => {
    attempts.toolCalls.push(params);
    throw new Error("This host lets no view call a tool.");
  };
  bridge.onmessage = async (params) => {
    attempts.messages.push(params);
    return { isError: true };
  };
  bridge.onopenlink = async (params) => {
    attempts.links.push(params);
    return { isError: true };
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.ceil(height)}px`;
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = resolve;
  });
  // Listening before the view loads: its ui/initialize is the first thing it sends.
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html;
  await initialized;
  if (args !== undefined) await bridge.sendToolInput({ arguments: args });
  if (result !== undefined) await bridge.sendToolResult(result);
  window.viewBridge = bridge;
};
