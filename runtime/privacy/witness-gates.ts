/**
 * Gates of pre-filter witnesses (prefilter.ts) told by hand. A witness whose `need` is ":" runs
 * its gate on nearly every text, and a capture's texts are joined into one of more than 1,000
 * characters, on which V8 compiles a pattern straight to machine code ("tier-up for very long
 * strings"): about 0.5 M instructions a gate in a fresh hook process, where these scans cost a
 * few thousand (docs/privacy.md "Cost"). Each says what its pattern (GATE_PATTERNS) says, which
 * test/privacy/witness-gates.test.ts checks.
 *
 * Example: `PORT_BETWEEN_COLONS.test("db:5432:app")` -> true; `.test("a:b:c")` -> false.
 */

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** [a-z0-9_-] */
const isKeyChar = (c: number): boolean => (c >= 97 && c <= 122) || isDigit(c) || c === 95 || c === 45;

/** /:(?:\d{1,5}|\*):/ : a port (1 to 5 digits) or "*" between two colons (the password-file witness's gate). */
export const PORT_BETWEEN_COLONS = {
  test(text: string): boolean {
    for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) {
      if (text.charCodeAt(i + 1) === 42 && text.charCodeAt(i + 2) === 58) return true;
      let d = 0;
      while (d < 6 && isDigit(text.charCodeAt(i + 1 + d))) d++;
      if (d >= 1 && d <= 5 && text.charCodeAt(i + 1 + d) === 58) return true;
    }
    return false;
  },
};

/** /\.[a-z0-9_-]{4,12}:[a-z0-9_-]{30}/ : an Ably key's ".<id>:" and 30 key characters (the ably witness's gate). */
export const ABLY_SHAPE = {
  test(text: string): boolean {
    for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) {
      // The run of key characters right before the colon must be all of what stands after a ".":
      // a longer run puts a key character where the "." would have to be.
      let r = 0;
      while (r < 13 && i - r - 1 >= 0 && isKeyChar(text.charCodeAt(i - r - 1))) r++;
      if (r < 4 || r > 12 || text.charCodeAt(i - r - 1) !== 46) continue;
      let k = 0;
      while (k < 30 && isKeyChar(text.charCodeAt(i + 1 + k))) k++;
      if (k === 30) return true;
    }
    return false;
  },
};

/** The patterns the gates above tell by hand (for the test that compares them). */
export const GATE_PATTERNS = (): Array<[{ test(text: string): boolean }, RegExp]> => [
  [PORT_BETWEEN_COLONS, /:(?:\d{1,5}|\*):/],
  [ABLY_SHAPE, /\.[a-z0-9_-]{4,12}:[a-z0-9_-]{30}/],
];
