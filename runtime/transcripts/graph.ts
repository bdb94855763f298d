/**
 * The conversation graph of one transcript, kept small: per message line only its parent's
 * index and one flag (a user line with text, i.e. not a tool result). Uuids live in one map
 * from uuid to node index; nothing else of a line is held here.
 *
 * Topology rules:
 * - Nodes are user and assistant lines (sidechains excluded by the caller).
 * - Other lines with a uuid (progress, system, non-prompt attachments) are transparent: their
 *   uuid is an alias of their parent, so a hook's progress line between a reply and the next
 *   prompt does not hide that two prompts are siblings. A compact boundary has
 *   `parentUuid: null`; its alias follows `logicalParentUuid` across the compaction.
 * - A parent that is not (yet) known, e.g. because its line was broken JSON, is repaired to the
 *   previous node in file order (counted in `repairedParents`).
 *
 * Liveness: the live branch is the path from the newest node (the last in file order) back to
 * a root. A node off that path is dead (rewound) when its branch leaves the path at a node p
 * with a user text line, and the path's own child of p is also a user text line: the two are
 * the original and the edited prompt of a rewind. Every other side branch (parallel tool
 * calls and their results, hook lines, an earlier root) stays live.
 *
 * Example: nodes u1 ← a1 ← u2 ← a2 and u2' ← a3 with u2' also a child of a1 (a rewind):
 * live = {u1, a1, u2', a3}; dead = {u2, a2}.
 */
export class ConversationGraph {
  /** uuid → node index; an alias (transparent line) maps to its parent's node, -1 for none. */
  private readonly index = new Map<string, number>();
  private readonly parents: number[] = [];
  private readonly userText: boolean[] = [];
  /** Nodes seeded from a cursor (the tail of an earlier read), always live. */
  private seeded = 0;
  repairedParents = 0;

  get size(): number {
    return this.parents.length;
  }

  get seededCount(): number {
    return this.seeded;
  }

  /** Resolves a parent uuid to a node index: -1 for null, a repair for an unknown uuid. */
  resolveParent(parentUuid: string | null): number {
    if (parentUuid === null) return -1;
    const p = this.index.get(parentUuid);
    if (p !== undefined) return p;
    this.repairedParents++;
    return this.parents.length - 1;
  }

  /** True when the uuid is known (as a node or an alias). */
  has(uuid: string): boolean {
    return this.index.has(uuid);
  }

  /** The node a uuid resolves to, or undefined when unknown. */
  nodeOf(uuid: string): number | undefined {
    return this.index.get(uuid);
  }

  /** Adds a user or assistant line; returns its node index (the first one for a repeated uuid). */
  addNode(uuid: string | null, parentUuid: string | null, isUserText: boolean): number {
    if (uuid !== null) {
      const existing = this.index.get(uuid);
      if (existing !== undefined && existing >= 0 && existing < this.parents.length) return existing;
    }
    const parent = this.resolveParent(parentUuid);
    const i = this.parents.length;
    this.parents.push(parent);
    this.userText.push(isUserText);
    if (uuid !== null) this.index.set(uuid, i);
    return i;
  }

  /** Adds a transparent line (progress, system, ...): its uuid becomes an alias of its parent. */
  addAlias(uuid: string | null, parentUuid: string | null): number {
    const target = this.resolveParent(parentUuid);
    if (uuid !== null && !this.index.has(uuid)) this.index.set(uuid, target);
    return target;
  }

  /** Seeds a linear chain of known uuids (from a cursor); seeded nodes are always live. */
  seed(uuids: readonly string[]): void {
    for (const u of uuids) {
      if (this.index.has(u)) continue;
      const i = this.parents.length;
      this.parents.push(i - 1);
      this.userText.push(false);
      this.index.set(u, i);
    }
    this.seeded = this.parents.length;
  }

  /** Uuids (nodes and aliases) that resolve to node `from` or later, in file order, the last `max`. */
  uuidsFrom(from: number, max: number): string[] {
    const out: string[] = [];
    for (const [uuid, i] of this.index) if (i >= from) out.push(uuid);
    return out.length > max ? out.slice(out.length - max) : out;
  }

  parentOf(i: number): number {
    return this.parents[i] ?? -1;
  }

  isUserText(i: number): boolean {
    return this.userText[i] === true;
  }

  /**
   * Which nodes are live, as a mask (1 live, 0 dead), walking from the newest node. Also
   * returns the path (node indexes from the leaf back to the root).
   */
  liveMask(): { live: Uint8Array; path: number[] } {
    const n = this.parents.length;
    const live = new Uint8Array(n);
    const onPath = new Uint8Array(n);
    const pathChild = new Int32Array(n).fill(-1);
    const path: number[] = [];
    let i = n - 1;
    while (i >= 0 && onPath[i] === 0) {
      onPath[i] = 1;
      path.push(i);
      const p = this.parents[i] ?? -1;
      if (p >= 0 && p < n) pathChild[p] = i;
      i = p >= 0 && p < i ? p : -1;
    }
    // 0 unknown, 1 live, 2 dead; parents precede children (repairs point backwards), so a
    // forward pass settles every node from its parent.
    const state = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      if (onPath[k] === 1 || k < this.seeded) {
        state[k] = 1;
        continue;
      }
      const p = this.parents[k] ?? -1;
      if (p < 0 || p >= k) {
        state[k] = 1;
        continue;
      }
      if (onPath[p] === 1) {
        const c = pathChild[p] ?? -1;
        const rewound = this.userText[k] === true && c >= 0 && this.userText[c] === true;
        state[k] = rewound ? 2 : 1;
      } else {
        state[k] = state[p] === 2 ? 2 : 1;
      }
    }
    for (let k = 0; k < n; k++) live[k] = state[k] === 1 ? 1 : 0;
    return { live, path };
  }
}
