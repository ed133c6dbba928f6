/**
 * The ride view (the MCP App of `get_activity_streams`): the key numbers and, when the answer has samples,
 * the chart of heart rate, power, speed or pace and elevation over time or distance. An answer with only
 * `summary` shows the numbers and says how to ask for a chart (a `resolution`). Its two switches (time or
 * distance, speed or pace) redraw the same data; nothing here calls a tool.
 */
import { element, message, notDrawable, startView, type ViewState } from "./view-app.ts";
import { chartSeries, keyNumbers, onFoot, parseStreams, xValues, type Series, type Streams, type XAxis } from "./ride-data.ts";
import { rideChart } from "./ride-chart.ts";
import { grouped, unitSystemFor, type UnitSystem } from "./units.ts";
import "./view.css";

/** What the athlete switched, kept across redraws. */
const choices: { axis: XAxis; pace: boolean | undefined } = { axis: "time", pace: undefined };

startView("ride", render);

function render(root: HTMLElement, state: ViewState): void {
  const problem = notDrawable(state);
  if (problem) return root.replaceChildren(problem);
  let streams: Streams;
  try {
    streams = parseStreams(state.result?.text ?? "");
  } catch {
    return root.replaceChildren(message("Nothing to draw", "The answer is not a list of streams."));
  }
  const system = unitSystemFor(state.locale);
  const showPace = choices.pace ?? onFoot(streams);
  const series = streams.samples > 1 ? chartSeries(streams, system, showPace) : [];
  const numbers = keyNumberTiles(streams, system);
  const parts: Element[] = [rideHeader(streams, series, state.args?.["id"])];
  if (series.length === 0) {
    parts.push(numbers, askForChart(streams));
    return root.replaceChildren(...parts);
  }

  const readout = element("p", "readout", "Touch or point at the chart to read every line at one moment.");
  const axis = streams.byType.has("distance") ? choices.axis : "time";
  const chart = rideChart({
    series,
    x: xValues(streams, axis),
    axis,
    system,
    width: Math.max(280, state.width),
    onReadout: (text) => {
      readout.textContent = text ?? "Touch or point at the chart to read every line at one moment.";
    },
  });
  parts.push(rideControls(streams, showPace, root, state), readout, chart, numbers);
  if (streams.resolution === "low")
    parts.push(
      element(
        "p",
        "note",
        'Drawn from 100 samples: highs and lows are kept. For a closer look at one part, ask for this activity\'s streams at resolution "medium".',
      ),
    );
  root.replaceChildren(...parts);
}

/** The title (the lines drawn, or "Activity summary") and what the answer is: the activity's id, the samples. */
function rideHeader(streams: Streams, series: readonly Series[], id: unknown): HTMLElement {
  const header = element("header", "view-header");
  header.append(element("h1", "", series.length > 0 ? joinLabels(series.map((one) => one.label)) : "Activity summary"));
  const about: string[] = [];
  if (typeof id === "number" || typeof id === "string") about.push(`Activity ${id}`);
  if (streams.samples > 0) about.push(sampleNote(streams));
  if (about.length > 0) header.append(element("p", "subtitle", about.join(" · ")));
  return header;
}

function keyNumberTiles(streams: Streams, system: UnitSystem): HTMLElement {
  const numbers = element("dl", "key-numbers");
  for (const number of keyNumbers(streams, system)) {
    const tile = element("div", "key-number");
    tile.append(element("dt", "", number.label), element("dd", "", number.value));
    numbers.append(tile);
  }
  return numbers;
}

/** The switches the streams allow: time or distance on the x axis (with a distance stream), speed or pace (with speed). */
function rideControls(streams: Streams, showPace: boolean, root: HTMLElement, state: ViewState): HTMLElement {
  const controls = element("div", "controls");
  if (streams.byType.has("distance"))
    controls.append(
      toggle(
        "X axis",
        [
          ["time", "Time"],
          ["distance", "Distance"],
        ],
        choices.axis,
        (value) => (choices.axis = value as XAxis),
        root,
        state,
      ),
    );
  if (streams.byType.has("velocity_smooth")) {
    controls.append(
      toggle(
        "Show",
        [
          ["speed", "Speed"],
          ["pace", "Pace"],
        ],
        showPace ? "pace" : "speed",
        (value) => (choices.pace = value === "pace"),
        root,
        state,
      ),
    );
  }
  return controls;
}

function sampleNote(streams: Streams): string {
  const of = streams.originalSize !== undefined ? ` of ${grouped(streams.originalSize)}` : "";
  return streams.resolution
    ? `${grouped(streams.samples)}${of} samples (resolution ${streams.resolution})`
    : `all ${grouped(streams.samples)} samples`;
}

function askForChart(streams: Streams): HTMLElement {
  const box = element("section", "ask");
  box.append(
    element("h2", "", "No chart in this answer"),
    element(
      "p",
      "",
      streams.hasSummary
        ? "This answer holds the summary only: numbers computed from every sample, no samples to draw."
        : "This answer holds no samples to draw.",
    ),
    element(
      "p",
      "",
      'To see the chart, ask for it, for example "Show me this ride as a chart": the coach then reads the streams with resolution "low" (100 samples, highs and lows kept).',
    ),
  );
  return box;
}

function toggle(
  label: string,
  options: Array<[string, string]>,
  current: string,
  choose: (value: string) => void,
  root: HTMLElement,
  state: ViewState,
): HTMLElement {
  const group = element("div", "toggle");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", label);
  for (const [value, text] of options) {
    const button = element("button", value === current ? "selected" : "", text);
    button.type = "button";
    button.dataset["choice"] = value;
    button.setAttribute("aria-pressed", String(value === current));
    button.addEventListener("click", () => {
      choose(value);
      render(root, state);
    });
    group.append(button);
  }
  return group;
}

/** "Heart rate, power, speed and elevation". */
function joinLabels(labels: string[]): string {
  const words = labels.map((label, index) => (index === 0 ? label : label.toLowerCase()));
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
