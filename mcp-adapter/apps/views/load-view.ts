// The load view's first form: the tool's text result as it came (its chart follows).
import { App } from "@modelcontextprotocol/ext-apps";

const app = new App({ name: "openclaw-fitness-load-view", version: "1.0.0" }, {});
app.ontoolresult = (result) => {
  const first = result.content?.[0];
  const pre = document.createElement("pre");
  pre.textContent = first?.type === "text" ? first.text : "";
  document.getElementById("view")?.replaceChildren(pre);
};
void app.connect();
