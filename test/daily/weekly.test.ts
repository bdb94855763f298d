import { afterEach, describe, expect, it } from "vitest";
import { runDaily } from "../../runtime/jobs/daily/daily.js";
import { stageOutput } from "../../runtime/jobs/daily/context.js";
import { tempDir } from "../helpers/io.js";
import { seedLedger, stageCtx } from "./fixtures.js";

describe("weekly and the promoted configuration", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("with nothing promoted v4 runs in shadow and says so; with a promoted configuration it names it", async () => {
    seedLedger(t.dir, [{ complaint: "x" }]);
    const seen: boolean[] = [];
    const deps = (promoted: string | null) => ({
      mine: null,
      embedded: async () => null,
      classJudge: async () => null,
      prose: null,
      promoted,
      v4: async (req: { shadow: boolean }) => {
        seen.push(req.shadow);
        return stageOutput({ exchanges: 0 });
      },
    });
    const shadow = await runDaily(stageCtx(t.dir), deps(null), { skipMine: true });
    expect(shadow.stages.find((s) => s.name === "v4")?.notes[0]).toBe("v4 ran in shadow: no promoted configuration");
    const live = await runDaily(stageCtx(t.dir), deps("bank 3f2a9c1b"), { skipMine: true });
    expect(live.stages.find((s) => s.name === "v4")?.notes[0]).toContain("promoted configuration (bank 3f2a9c1b)");
    expect(seen).toEqual([true, false]);
  });

});
