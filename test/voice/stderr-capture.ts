// Collects the structured log lines written to standard error while a test runs.
import { vi, type MockInstance } from "vitest";

export interface StderrCapture {
  /** Every JSON line written so far, parsed. */
  lines(): Array<Record<string, unknown>>;
  /** Everything written, raw (to check that secrets never appear). */
  raw(): string;
  clear(): void;
  restore(): void;
}

export function captureStderr(): StderrCapture {
  let written = "";
  const spy: MockInstance = vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
    written += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    return true;
  });
  return {
    lines: () =>
      written
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    raw: () => written,
    clear: () => {
      written = "";
    },
    restore: () => spy.mockRestore(),
  };
}
