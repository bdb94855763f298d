import { figure, fmt, h2, para, table, type Block } from "../runtime/pages/index.js";
import { badInput } from "../core/errors.js";
import { barChart } from "./charts.js";
import type { InputSpec } from "./inputs.js";
import type { Notebook } from "./notebook.js";

/**
 * The hook: its cost against a bare `node -e 0`, read from the hook bench's own output
 * (`node dist/bench/run.js hook`, bench/hook.bench.ts): wall-time medians per variant and
 * environment, and instructions under callgrind when the run had valgrind. The bench prints
 * medians (and callgrind's run range), not every run, so the page shows those.
 *
 * Example line parsed: "  hook, ordinary prompt: 48.1 ms, ratio to node -e 0: 1.08x".
 */
const bench: InputSpec = {
  notebook: "hook",
  key: "bench",
  what: "hook bench output (text)",
  bundled: "notebooks/data/hook-bench.txt",
  make: "npm run build && node dist/bench/run.js hook > hook-bench.txt",
};

export interface BenchLine {
  section: string;
  variant: string;
  value: number;
  unit: "ms" | "M instructions";
  ratio: number;
  range: [number, number] | null;
}

/** The measurement lines of the bench's text, each under the heading it follows. */
export function parseHookBench(text: string): { lines: BenchLine[]; runs: string | null; ledgerRows: number | null } {
  const lines: BenchLine[] = [];
  let section = "";
  let runs: string | null = null;
  let ledgerRows: number | null = null;
  for (const raw of text.split("\n")) {
    const wall = /^wall time, (.*):$/.exec(raw);
    if (wall) runs = wall[1] ?? null;
    const head = /^(\S.*):$/.exec(raw);
    if (head && !wall) section = /^instructions/.test(head[1] ?? "") ? "instructions (callgrind)" : `wall time, ${head[1]}`;
    const ms = /^ {2}(.+): ([\d.]+) ms, ratio to node -e 0: ([\d.]+)x$/.exec(raw);
    if (ms) lines.push({ section, variant: ms[1]!, value: Number(ms[2]), unit: "ms", ratio: Number(ms[3]), range: null });
    const ins = /^ {2}(.+): ([\d.]+) M \(runs ([\d.]+)-([\d.]+) M\), ratio to node -e 0: ([\d.]+)x$/.exec(raw);
    if (ins) lines.push({ section, variant: ins[1]!, value: Number(ins[2]), unit: "M instructions", ratio: Number(ins[5]), range: [Number(ins[3]), Number(ins[4])] });
    const rows = /^ledger rows appended by the capturing runs: (\d+)$/.exec(raw);
    if (rows) ledgerRows = Number(rows[1]);
  }
  return { lines, runs, ledgerRows };
}

export const hook: Notebook = {
  name: "hook",
  title: "The hook's cost against a bare Node start",
  inputs: [bench],
  async blocks(read) {
    const input = read("bench");
    const parsed = parseHookBench(input.text);
    if (parsed.lines.length === 0) throw badInput(`${input.shown} holds no hook bench lines`, 'the output of node dist/bench/run.js hook ("  <variant>: <n> ms, ratio to node -e 0: <r>x")', "none");
    const sections = [...new Set(parsed.lines.map((l) => l.section))];
    const blocks: Block[] = [
      para(`From the bench's own output (${input.shown}): ${parsed.runs ?? "wall-time medians"}. Ratios are to \`node -e 0\` started the same way in the same run; target: the hook within 1.3x of a bare Node start.`),
      figure(
        "ratio",
        "Each variant's median against node -e 0 (1.0 = no cost beyond starting Node), per measure.",
        barChart(parsed.lines.filter((l) => l.variant !== "node -e 0").map((l) => ({ label: `${l.variant} · ${l.section}`, group: l.section, value: l.ratio })), "ratio to node -e 0"),
      ),
    ];
    for (const s of sections) {
      const rows = parsed.lines.filter((l) => l.section === s);
      blocks.push(
        h2(s),
        figure(`abs-${sections.indexOf(s)}`, `${s}: the median per variant${rows.some((r) => r.range) ? " (callgrind's run range in the table)" : ""}.`, barChart(rows.map((l) => ({ label: l.variant, group: l.variant === "node -e 0" ? "baseline" : "hook", value: l.value })), rows[0]!.unit)),
        table(["variant", `median (${rows[0]!.unit})`, "runs' range", "ratio to node -e 0"], rows.map((l) => [l.variant, fmt(l.value, 1), l.range ? `${fmt(l.range[0], 1)}-${fmt(l.range[1], 1)}` : "—", `${fmt(l.ratio, 2)}x`]), [1, 3]),
      );
    }
    if (parsed.ledgerRows !== null) blocks.push(para(`Ledger rows appended by the capturing runs: ${parsed.ledgerRows}.`));
    return blocks;
  },
};
