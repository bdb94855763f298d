import { describe, expect, it } from "vitest";
import { run } from "../cli/main.js";
import { memoryIo } from "./helpers/io.js";

describe("cli core", () => {
  it("prints help with exit 0", async () => {
    const io = memoryIo();
    expect(await run(["--help"], io.io)).toBe(0);
    expect(io.out()).toContain("Usage: errata");
  });
  it("rejects an unknown command with exit 2", async () => {
    const io = memoryIo();
    expect(await run(["no-such-command"], io.io)).toBe(2);
    expect(io.err()).toMatch(/unknown command|too many arguments/);
  });
});
