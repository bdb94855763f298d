/**
 * How a view of a text is built (text-views.ts): each step writes its output and, per
 * character, the span of its input it came from; the steps' spans are composed into the
 * original's.
 *
 * Example: `const b = new Builder(); copy(b, "ab", 0, 2); b.push("\n", 2, 2)` -> `b.out` "ab\n",
 * `b.from` [0, 1, 2], `b.to` [1, 2, 2].
 */

/** One step's output: the new text and, per character, its [from, to) in the step's input. */
export class Builder {
  out = "";
  from: number[] = [];
  to: number[] = [];
  push(s: string, a: number, b: number): void {
    for (let i = 0; i < s.length; i++) {
      this.from.push(a);
      this.to.push(b);
    }
    this.out += s;
  }
}

/** The input copied from `a` to `b`, each character mapped to itself. */
export function copy(b: Builder, text: string, a: number, z: number): void {
  for (let i = a; i < z; i++) {
    b.from.push(i);
    b.to.push(i + 1);
  }
  b.out += text.slice(a, z);
}

export type Step = (text: string) => Builder | null;
