import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConversationGraph } from "../../runtime/transcripts/graph.js";

function liveSet(g: ConversationGraph, names: string[]): string[] {
  const { live } = g.liveMask();
  return names.filter((_, i) => live[i] === 1);
}

describe("ConversationGraph", () => {
  it("marks the rewound branch dead and keeps the edited one", () => {
    const g = new ConversationGraph();
    const names = ["u1", "a1", "u2", "a2", "u2b", "a3"];
    g.addNode("u1", null, true);
    g.addNode("a1", "u1", false);
    g.addNode("u2", "a1", true);
    g.addNode("a2", "u2", false);
    g.addNode("u2b", "a1", true); // the rewind: edited prompt, sibling of u2
    g.addNode("a3", "u2b", false);
    expect(liveSet(g, names)).toEqual(["u1", "a1", "u2b", "a3"]);
  });

  it("keeps parallel tool calls and their results live (siblings that are not user text)", () => {
    // The shape of spotter/subagent.jsonl lines 9-17: four tool_use lines, results attached to each.
    const g = new ConversationGraph();
    const names = ["u", "t1", "t2", "t3", "r1", "r3", "r2", "a"];
    g.addNode("u", null, true);
    g.addNode("t1", "u", false);
    g.addNode("t2", "t1", false);
    g.addNode("t3", "t2", false);
    g.addNode("r1", "t1", false);
    g.addNode("r3", "t3", false);
    g.addNode("r2", "t2", false);
    g.addNode("a", "r2", false);
    expect(liveSet(g, names)).toEqual(names);
  });

  it("follows a compact boundary's logical parent and sees through hook lines", () => {
    const g = new ConversationGraph();
    g.addNode("u1", null, true);
    g.addNode("a1", "u1", false);
    g.addAlias("hook", "a1"); // progress line between reply and prompt
    g.addNode("u2", "hook", true);
    g.addNode("a2", "u2", false);
    g.addAlias("cb", "a2"); // compact_boundary: parentUuid null, logicalParentUuid a2
    g.addNode("sum", "cb", true);
    g.addNode("u3", "sum", true);
    expect(g.liveMask().path).toEqual([5, 4, 3, 2, 1, 0]); // across the compaction to the first prompt
    g.addNode("u2b", "hook", true); // rewind of u2 from after the compaction: sibling via the hook alias
    const { live, path } = g.liveMask();
    expect(path).toEqual([6, 1, 0]);
    expect([...live]).toEqual([1, 1, 0, 0, 0, 0, 1]);
  });

  it("repairs a parent lost to a broken line to the previous node", () => {
    const g = new ConversationGraph();
    g.addNode("u1", null, true);
    g.addNode("a1", "u1", false);
    g.addNode("a2", "lost-in-a-broken-line", false);
    expect(g.repairedParents).toBe(1);
    expect(g.liveMask().path).toEqual([2, 1, 0]);
  });

  it("property: a linear conversation is wholly live; one rewind kills exactly the old branch", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 2, maxLength: 40 }), fc.nat(), fc.nat(20), (kinds, at, tail) => {
        const g = new ConversationGraph();
        // kinds[i]: user text or assistant; the first is always a user prompt.
        const userText = [true, ...kinds.slice(1)];
        userText.forEach((u, i) => g.addNode(`n${i}`, i === 0 ? null : `n${i - 1}`, u));
        expect([...g.liveMask().live].every((v) => v === 1)).toBe(true);
        const prompts = userText.map((u, i) => (u && i > 0 ? i : -1)).filter((i) => i > 0);
        if (prompts.length === 0) return;
        const k = prompts[at % prompts.length] as number;
        g.addNode("edit", `n${k - 1}`, true);
        for (let j = 0; j < tail; j++) g.addNode(`e${j}`, j === 0 ? "edit" : `e${j - 1}`, false);
        const { live } = g.liveMask();
        for (let i = 0; i < userText.length; i++) expect(live[i]).toBe(i < k ? 1 : 0);
        for (let i = userText.length; i < live.length; i++) expect(live[i]).toBe(1);
      }),
    );
  });
});
