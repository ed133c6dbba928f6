/**
 * The calls the write-approval hook keeps for their execute: one is used only by the same call (same id,
 * tool and params deep-equal to what the hook saw), once, before it expires; the store never holds more
 * than its bound. Anything else finds nothing, so the call is validated again as usual.
 */
import { describe, expect, it } from "vitest";
import { PreparedCalls } from "../../plugin/prepared-calls.ts";
import type { PreparedCall } from "../../tools/runner/prepared-call.ts";
import { manualClock } from "../support/test-clock.ts";

function preparedFor(name: string): PreparedCall {
  return { args: { id: 1, name }, request: { method: "PUT", path: "/activities/1", body: { kind: "json", value: { name } } } };
}

describe("PreparedCalls", () => {
  it("gives the kept call to the same call once, for a deep-equal copy of its params", () => {
    const calls = new PreparedCalls({ ttlMs: 60_000, now: manualClock().now });
    const prepared = preparedFor("Leg day");
    const params = { id: 1, name: "Leg day", tags: ["a", { b: 2 }] };
    calls.keep("call-1", "update_activity", params, prepared);
    expect(calls.take("call-1", "update_activity", structuredClone(params))).toBe(prepared);
    expect(calls.take("call-1", "update_activity", structuredClone(params))).toBeUndefined();
    expect(calls.size).toBe(0);
  });

  it("gives nothing for other params, another tool or another id, and drops the entry it was asked for", () => {
    const calls = new PreparedCalls({ ttlMs: 60_000, now: manualClock().now });
    const params = { id: 1, name: "Leg day" };
    calls.keep("call-1", "update_activity", params, preparedFor("Leg day"));
    calls.keep("call-2", "update_activity", params, preparedFor("Leg day"));
    expect(calls.take("call-3", "update_activity", params)).toBeUndefined();
    expect(calls.take("call-1", "update_activity", { id: 1, name: "Arm day" })).toBeUndefined();
    expect(calls.take("call-1", "update_activity", params)).toBeUndefined();
    expect(calls.take("call-2", "create_activity", params)).toBeUndefined();
    expect(calls.take("call-2", "update_activity", { ...params, description: undefined })).toBeUndefined();
    expect(calls.size).toBe(0);
  });

  it("gives nothing once the entry has expired, and clears expired entries when keeping another", () => {
    const clock = manualClock();
    const calls = new PreparedCalls({ ttlMs: 60_000, now: clock.now });
    const params = { id: 1, name: "Leg day" };
    calls.keep("call-1", "update_activity", params, preparedFor("Leg day"));
    clock.advance(60_000);
    expect(calls.take("call-1", "update_activity", params)).toBeUndefined();
    calls.keep("call-2", "update_activity", params, preparedFor("Leg day"));
    clock.advance(60_000);
    calls.keep("call-3", "update_activity", params, preparedFor("Leg day"));
    expect(calls.size).toBe(1);
  });

  it("keeps at most its bound, dropping the oldest first", () => {
    const calls = new PreparedCalls({ ttlMs: 60_000, maxEntries: 3, now: manualClock().now });
    const params = { id: 1, name: "Leg day" };
    for (const id of ["a", "b", "c", "d", "e"]) calls.keep(id, "update_activity", params, preparedFor(id));
    expect(calls.size).toBe(3);
    expect(calls.take("a", "update_activity", params)).toBeUndefined();
    expect(calls.take("b", "update_activity", params)).toBeUndefined();
    expect(calls.take("e", "update_activity", params)?.args["name"]).toBe("e");
  });
});
