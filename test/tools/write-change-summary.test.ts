/**
 * The text of the host's approval prompt for a write: what changes, as the athlete reads it, always
 * within the host's limits (a longer prompt would be refused by the host and block the call).
 */
import { describe, expect, it } from "vitest";
import { approvalDescriptionLimit, summarizeCreate, summarizeUpdate, summarizeUpload } from "../../tools/writes/write-change-summary.ts";

const current = {
  name: "Afternoon Weight Training",
  sport_type: "WeightTraining",
  description: "",
  start_date_local: "2026-11-22T14:35:00Z",
};

describe("summarizeUpdate", () => {
  it("shows the current and proposed title and sport type and the description lines it adds", () => {
    const summary = summarizeUpdate(
      { id: 15848698500, name: "Iron Temple | Back Squat", sport_type: "Workout", description: "Strength:\n- Back squat 5x5 @ 185\n" },
      current,
    );
    expect(summary.title).toBe("Update Strava activity");
    expect(summary.description).toBe(
      [
        "Activity 15848698500, Sun 22 Nov 14:35",
        'Title: "Afternoon Weight Training" → "Iron Temple | Back Squat"',
        'Sport type: "WeightTraining" → "Workout"',
        "Description (was empty):",
        "```",
        "+ Strength:",
        "+ - Back squat 5x5 @ 185",
        "```",
        "To change it, tap Deny and say what.",
      ].join("\n"),
    );
  });

  it("marks what stays and diffs an existing description line by line", () => {
    const summary = summarizeUpdate(
      { id: 1, description: "Recorded with my watch\n\nDetails:\n- 6x800 m" },
      { ...current, name: "Lunch Run", sport_type: "Run", description: "Recorded with my watch" },
    );
    expect(summary.description).toContain('Title: "Lunch Run" (unchanged)');
    expect(summary.description).toContain('Sport type: "Run" (unchanged)');
    expect(summary.description).toContain("Description (1 line kept):\n```\n+ \n+ Details:\n+ - 6x800 m\n```");
    const replaced = summarizeUpdate({ id: 1, description: "New text" }, { ...current, description: "Old text" });
    expect(replaced.description).toContain("Description (replaced):\n```\n- Old text\n+ New text\n```");
    const cleared = summarizeUpdate({ id: 1, description: "" }, { ...current, description: "Old text" });
    expect(cleared.description).toContain("Description: cleared (replaced)\n```\n- Old text\n```");
    const same = summarizeUpdate({ id: 1, name: "Afternoon Weight Training", description: "" }, current);
    expect(same.description).toContain('Title: "Afternoon Weight Training" (unchanged)');
    expect(same.description).toContain("Description: unchanged");
  });

  it("shows trainer, commute and gear only when they are being changed", () => {
    const summary = summarizeUpdate({ id: 1, trainer: true, gear_id: "none" }, { ...current, trainer: false, gear_id: "b123" });
    expect(summary.description).toContain("Trainer: false → true");
    expect(summary.description).toContain('Gear: "b123" → "none"');
    expect(summary.description).not.toContain("Commute");
  });

  it("still asks, with the proposed values, when the current activity could not be read", () => {
    const summary = summarizeUpdate(
      { id: 42, name: "Leg Day", description: "Squats" },
      { unreadable: "Strava answered 404 Not Found to GET /activities/42" },
    );
    expect(summary.description).toContain(
      "Activity 42\nCurrent values could not be read (Strava answered 404 Not Found to GET /activities/42).",
    );
    expect(summary.description).toContain('Title: → "Leg Day"');
    expect(summary.description).toContain("Sport type: unchanged");
    expect(summary.description).toContain("Description (current text unknown):\n```\n+ Squats\n```");
  });

  it("fits a long diff into the host's 512 characters, says how many lines are not shown and where the whole text is", () => {
    const long = Array.from({ length: 60 }, (_, index) => `- Set ${index + 1}: 5 reps @ 100 kg, felt fine`).join("\n");
    const summary = summarizeUpdate({ id: 1, name: "Volume Day", description: long }, current);
    expect([...summary.description].length).toBeLessThanOrEqual(approvalDescriptionLimit);
    const shown = summary.description.split("\n").filter((line) => line.startsWith("+ ")).length;
    expect(shown).toBeGreaterThan(3);
    expect(summary.description).toContain(
      `\n\`\`\`\n… ${60 - shown} more changed lines. The whole text is in the coach's proposal just above; if there is none, tap Deny.\nTo change it, tap Deny and say what.`,
    );
  });

  it("says nothing of another message when the whole change is on the prompt", () => {
    const summary = summarizeUpdate({ id: 1, name: "Volume Day", description: "Strength:\n- Squat 5x5" }, current);
    expect(summary.description).not.toContain("proposal just above");
  });

  it("says where the whole text is when a title is too long to show whole", () => {
    const title = `Iron Temple | ${"Heavy ".repeat(20)}Legs`;
    const summary = summarizeUpdate({ id: 1, name: title }, current);
    expect(summary.description).toContain(`"${title.slice(0, 99)}…"`);
    expect(summary.description).toContain(
      "Shortened here. The whole text is in the coach's proposal just above; if there is none, tap Deny.",
    );
    const created = summarizeCreate({ name: title, sport_type: "Workout", start_date_local: "2026-11-21T06:00:00", elapsed_time: 60 });
    expect(created.description).toContain("Shortened here.");
  });

  it("keeps the diff in a fenced block, which the chat shows as written (Markdown made +/- lines bullets)", () => {
    const summary = summarizeUpdate({ id: 1, description: "```\nnot a fence\n```" }, current);
    expect(summary.description.match(/^```$/gm)).toHaveLength(2);
    expect(summary.description).toContain("+ '''\n+ not a fence\n+ '''");
  });

  it("replaces tabs and invisible characters the host would show as escape codes", () => {
    const summary = summarizeUpdate({ id: 1, description: "Squat\t5x5\u200b @ 100\u00a0kg" }, current);
    expect(summary.description).toContain("+ Squat  5x5  @ 100 kg");
    expect(summary.description).not.toMatch(/[\t\u200b\u00a0]/);
  });

  it("keeps even a summary of very long titles within the limit, still saying where the whole text is", () => {
    const summary = summarizeUpdate(
      { id: 1, name: "x".repeat(255), sport_type: "Workout", description: "y".repeat(2000) },
      { ...current, name: "z".repeat(255) },
    );
    expect([...summary.description].length).toBeLessThanOrEqual(approvalDescriptionLimit);
    expect(summary.description).toContain("The whole text is in the coach's proposal just above");
  });
});

describe("summarizeCreate and summarizeUpload", () => {
  it("lists the new activity's fields", () => {
    const summary = summarizeCreate({
      name: "Iron Temple | Squat",
      sport_type: "Workout",
      start_date_local: "2026-11-21T06:00:00",
      elapsed_time: 3900,
      distance: 0,
      description: "Strength:\n- Squat 5x5",
    });
    expect(summary).toEqual({
      title: "Create Strava activity",
      description: [
        'New activity: "Iron Temple | Squat"',
        "Sport type: Workout",
        "Start (local): Sat 21 Nov 06:00",
        "Duration: 1:05:00",
        "Distance: 0 m",
        "Description:",
        "```",
        "+ Strength:",
        "+ - Squat 5x5",
        "```",
        "To change it, tap Deny and say what.",
      ].join("\n"),
    });
  });

  it("gives an upload's format and decoded size, never its content", () => {
    const file = Buffer.alloc(3000, 7).toString("base64");
    const summary = summarizeUpload({ file, data_type: "fit.gz", name: "Morning Ride", external_id: "garmin-123" });
    expect(summary.title).toBe("Upload an activity file to Strava");
    expect(summary.description).toContain("New activity from a FIT.GZ file (3,000 bytes)");
    expect(summary.description).toContain('Title: "Morning Ride"');
    expect(summary.description).toContain("External id: garmin-123");
    expect(summary.description).not.toContain(file.slice(0, 20));
  });
});
