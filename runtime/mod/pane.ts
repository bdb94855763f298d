/**
 * The owner's pane in the Errata mod (docs/mod.md, "The owner's pane"): the morning report, the
 * approval table (each proposal with its evidence, its edit, a check's pattern among it, and
 * the check's replay over the recorded calls: the very lines `errata rules approvals` prints),
 * each check in shadow and how far it is from its gate (the last audit's reading, in the
 * morning report), and approve / reject / undo, as the pane's buttons and as `/errata` words.
 *
 * Every word of it comes from the `errata` CLI in a child (`$.process.run`): `errata rules
 * morning --dry-run --json` and `errata rules approvals --all --json` to draw, and `errata rules
 * approve|reject|undo ID` to act. So an approval from the pane is the same code as the one typed
 * in a terminal, under the same run lock, with one writer for every ladder file; the mod holds
 * no ladder state of its own, only the last reading it drew.
 *
 * Where no surface places a pane (`claude -p`, a headless host) `/errata pane` answers the
 * pane's text instead (`paneText`), which is what the owner reads there.
 *
 * Example: `/errata approve pr-3f2a1c9e0b` -> runs `errata rules approve pr-3f2a1c9e0b` in the
 * project, answers its output ("applied pr-3f2a1c9e0b: ..."), and redraws the pane.
 */
import type { ModApi } from "./api.js";

export const PANE_ID = "errata";
export const PANE_TITLE = "Errata";

/** What the pane needs of the session: where to run and which `errata`. */
export interface PaneSession {
  cwd: string;
  errata: readonly string[];
}

export interface PaneProposal {
  id: string;
  type: string;
  status: string;
  /** `errata rules approvals`' lines for it. */
  lines: string[];
}

/** One reading of the ladder, as the pane draws it. */
export interface PaneView {
  morning: string[];
  /** The pending proposals, then the applied ones (which can be undone). */
  proposals: PaneProposal[];
  /** What the last action printed (the CLI's own words), or a reading that failed. */
  note: string | null;
}

/** `$.ui.resolve(e)`'s elements the pane draws with. */
export interface PaneElements {
  Box: unknown;
  Text: unknown;
  Button: unknown;
}
type Element = NonNullable<ModApi["h"]>;

const USAGE = "usage: /errata pane | report | approvals | approve ID [--native-deny] | reject ID [why ...] | undo ID";
const ID = /^[A-Za-z0-9._:-]+$/;
/** The reason a pane's Reject button records (the CLI requires one). */
export const PANE_REJECT_WHY = "said no in the Errata pane";

/** `/errata WORDS` -> the `errata` argv it runs, "pane", or the usage line for words it does not take. */
export function errataCommand(words: readonly string[]): string[] | "pane" | string {
  const [verb, ...all] = words;
  // The owner's hard block (docs/ladder.md): the one flag /errata passes on, after approve only.
  const native = verb === "approve" && all.at(-1) === "--native-deny";
  const rest = native ? all.slice(0, -1) : all;
  const oneId = (v: string) => (rest.length === 1 && ID.test(rest[0]!) ? null : `${USAGE} (expected one proposal id after ${v}; found ${rest.length === 0 ? "none" : JSON.stringify(rest.join(" "))})`);
  switch (verb) {
    case undefined:
    case "report":
      return rest.length === 0 ? ["rules", "morning"] : USAGE;
    case "pane":
      return rest.length === 0 ? "pane" : USAGE;
    case "approvals":
      return rest.length === 0 ? ["rules", "approvals"] : USAGE;
    case "reject": {
      // The reason is the words after the id (the CLI keeps it with the proposal); none given: said so.
      const [id, ...why] = rest;
      if (id === undefined || !ID.test(id)) return `${USAGE} (expected a proposal id after reject; found ${id === undefined ? "none" : JSON.stringify(id)})`;
      return ["rules", "reject", id, "--why", why.length > 0 ? why.join(" ") : "said no through /errata"];
    }
    case "approve":
    case "undo":
      return oneId(verb) ?? ["rules", verb, rest[0]!, ...(native ? ["--native-deny"] : [])];
    default:
      return `${USAGE} (found ${JSON.stringify(verb)})`;
  }
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A child's JSON answer, or why it has none. */
function jsonOf(r: { exitCode: number | null; stdout: string; stderr: string }, what: string): Record<string, unknown> {
  try {
    const v = JSON.parse(r.stdout) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* said below */
  }
  throw new Error(`${what} answered no JSON (exit ${r.exitCode ?? "?"}): ${(r.stderr || r.stdout).trim().slice(0, 300)}`);
}

/** Reads the ladder through the CLI: the morning report (no receipt written) and the approval table. */
export async function readView($: ModApi, s: PaneSession): Promise<PaneView> {
  const [morning, approvals] = await Promise.all([
    $.run([...s.errata, "rules", "morning", "--dry-run", "--json"], { cwd: s.cwd, timeoutMs: 60_000 }),
    $.run([...s.errata, "rules", "approvals", "--all", "--json"], { cwd: s.cwd, timeoutMs: 60_000 }),
  ]);
  const report = jsonOf(morning, "errata rules morning")["report"];
  const listed = jsonOf(approvals, "errata rules approvals")["proposals"];
  const proposals: PaneProposal[] = (Array.isArray(listed) ? listed : [])
    .map((p: Record<string, unknown>) => ({ id: String(p["id"]), type: String(p["type"]), status: String(p["status"]), lines: Array.isArray(p["lines"]) ? (p["lines"] as unknown[]).map(String) : [] }))
    .filter((p) => p.status === "pending" || p.status === "applied");
  const order = (p: PaneProposal) => (p.status === "pending" ? 0 : 1);
  return { morning: Array.isArray(report) ? report.map(String) : [], proposals: proposals.sort((a, b) => order(a) - order(b)), note: null };
}

/** The pane as text: what `/errata pane` answers where no surface draws it. */
export function paneText(v: PaneView): string {
  const out = [...v.morning, "", "Approval table:"];
  const pending = v.proposals.filter((p) => p.status === "pending");
  const applied = v.proposals.filter((p) => p.status === "applied");
  if (pending.length === 0) out.push("  No proposal waiting.");
  for (const p of pending) out.push(...p.lines, `    decide: /errata approve ${p.id} | /errata reject ${p.id} [why]`);
  for (const p of applied) out.push(...p.lines, `    undo: /errata undo ${p.id}`);
  if (v.note !== null) out.push("", v.note);
  return out.join("\n");
}

/** The pane's tree over the surface's elements: the report, each proposal with its buttons, the last action's words. */
export function paneTree(el: PaneElements, h: Element, v: PaneView | null, act: (verb: "approve" | "reject" | "undo" | "refresh", id: string) => void): unknown {
  const { Box, Text, Button } = el;
  if (v === null) return h(Box, { flexDirection: "column" }, h(Text, { dimColor: true }, "Reading the ladder..."));
  const rows: unknown[] = v.morning.map((line, i) => h(Text, i === 0 ? { bold: true } : line.startsWith("ALARM") ? { color: "error" } : null, line));
  rows.push(h(Text, { bold: true }, "Approval table"));
  if (!v.proposals.some((p) => p.status === "pending")) rows.push(h(Text, { dimColor: true }, "No proposal waiting."));
  for (const p of v.proposals) {
    rows.push(...p.lines.map((line, i) => h(Text, i === 0 ? { bold: p.status === "pending" } : { dimColor: p.status !== "pending" }, line)));
    rows.push(
      p.status === "pending"
        ? h(Box, { flexDirection: "row" }, h(Button, { key: `approve:${p.id}`, label: "Approve", variant: "primary", onPress: () => act("approve", p.id) }), h(Text, null, " "), h(Button, { key: `reject:${p.id}`, label: "Reject", onPress: () => act("reject", p.id) }))
        : h(Box, { flexDirection: "row" }, h(Button, { key: `undo:${p.id}`, label: "Undo", onPress: () => act("undo", p.id) })),
    );
  }
  if (v.note !== null) rows.push(h(Text, { dimColor: true }, v.note));
  rows.push(h(Button, { key: "refresh", label: "Refresh", dimColor: true, onPress: () => act("refresh", "") }));
  return h(Box, { flexDirection: "column" }, ...rows);
}

/** The pane's state for one loaded module: its last reading, and the act both the buttons and `/errata` go through. */
export interface ErrataPane {
  /** `/errata WORDS`: the command's answer (the CLI's own words; the pane's text for `pane`). */
  command: ($: ModApi, s: PaneSession, args: string) => Promise<{ text: string }>;
  /** The `Pane` render hook's answer for the pane's id. */
  render: ($: ModApi, s: PaneSession, e: unknown) => unknown;
  /** The last reading (tests). */
  view: () => PaneView | null;
}

export function createPane(): ErrataPane {
  let view: PaneView | null = null;
  let reading: Promise<void> | null = null;

  /** A new reading, then a redraw; a reading that fails is the note, the last one kept. */
  const refresh = ($: ModApi, s: PaneSession, note: string | null): Promise<void> =>
    (reading ??= readView($, s)
      .then(
        (v) => void (view = { ...v, note }),
        (err: unknown) => {
          $.log(`errata mod: pane: ${message(err)}`);
          view = { ...(view ?? { morning: [], proposals: [] }), note: `${note === null ? "" : `${note}\n`}the ladder could not be read: ${message(err)}` };
        },
      )
      .finally(() => {
        reading = null;
        try {
          $.invalidate?.();
        } catch {
          /* nothing drawn: the next draw reads the view */
        }
      }));

  /** Runs `errata rules ...` (the same command, the same lock) and answers what it printed. */
  const run = async ($: ModApi, s: PaneSession, argv: readonly string[]): Promise<string> => {
    const r = await $.run([...s.errata, ...argv], { cwd: s.cwd, timeoutMs: 120_000 });
    const out = `${r.stdout}${r.stderr === "" ? "" : `\n${r.stderr}`}`.trim();
    return out === "" ? `errata ${argv.join(" ")}: done (exit ${r.exitCode ?? "?"})` : out;
  };

  return {
    view: () => view,

    async command($, s, args) {
      const argv = errataCommand(args.trim().split(/\s+/).filter((w) => w !== ""));
      if (argv === "pane") {
        const opened = $.open === undefined ? { isPlaced: false as const, reason: "no surface" } : await $.open({ id: PANE_ID, title: PANE_TITLE });
        await refresh($, s, null);
        // Placed: the pane shows it; not (`-p`, too narrow, no surface): the answer is the pane's text.
        return { text: opened.isPlaced ? "Errata pane opened." : `${paneText(view!)}\n(the pane is not drawn here: ${opened.reason})` };
      }
      if (typeof argv === "string") return { text: argv };
      const text = await run($, s, argv);
      // An action changes the table: the pane, when open, redraws from a new reading.
      if (argv[1] === "approve" || argv[1] === "reject" || argv[1] === "undo") await refresh($, s, text);
      return { text };
    },

    render($, s, e) {
      if (view === null && reading === null) void refresh($, s, null);
      const act = (verb: "approve" | "reject" | "undo" | "refresh", id: string): void => {
        if (verb === "refresh") {
          void refresh($, s, null);
          return;
        }
        const argv = verb === "reject" ? ["rules", "reject", id, "--why", PANE_REJECT_WHY] : ["rules", verb, id];
        void run($, s, argv).then(
          (text) => refresh($, s, text),
          (err: unknown) => refresh($, s, `errata ${argv.join(" ")} did not run: ${message(err)}`),
        );
      };
      if ($.resolve === undefined || $.h === undefined) throw new Error("no surface to draw on (the ui ports are missing)");
      return paneTree($.resolve(e) as unknown as PaneElements, $.h, view, act);
    },
  };
}
