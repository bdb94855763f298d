/**
 * Which keywords a lower-cased text holds, for gitleaks' keyword gates (gitleaks.ts, run by
 * engine.ts once per text over ~240 keywords) and the pre-filter once a process is warm.
 *
 * Example: `new KeywordGate("token ghp_x").has("ghp_")` -> true; `.has("xoxb")` -> false.
 */
/**
 * Which keywords a lower-cased text can hold: a bitmap of the character pairs in it (ASCII),
 * checked before `includes`, so the ~240 keywords cost a few table reads each on text that
 * lacks them (most keywords hold a pair that ordinary prose does not, like "_" after a letter).
 */
export class KeywordGate {
  private readonly pairs = new Uint8Array(128 * 128);
  constructor(private readonly lower: string) {
    for (let i = 1; i < lower.length; i++) {
      const a = lower.charCodeAt(i - 1);
      const b = lower.charCodeAt(i);
      if (a < 128 && b < 128) this.pairs[a * 128 + b] = 1;
    }
  }
  has(keyword: string): boolean {
    for (let i = 1; i < keyword.length; i++) {
      const a = keyword.charCodeAt(i - 1);
      const b = keyword.charCodeAt(i);
      if (a < 128 && b < 128 && this.pairs[a * 128 + b] === 0) return false;
    }
    return this.lower.includes(keyword);
  }
}
