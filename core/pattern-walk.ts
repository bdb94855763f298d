/**
 * A walk over a regular expression's source that hands each character to `visit` with whether
 * it sits inside a character class; escapes (a backslash and the character after it) and the
 * class brackets are copied as they are. `visit(src, i, inClass)` returns the text to write for
 * `src[i]` and how many characters after it that text also stands for. Used by the
 * classifier's pattern language (runtime/classifier/compile-core.ts: spaces and `{w}`) and the
 * redactor's caseless rewrite (runtime/privacy/own-rules.ts). Written by hand: a rewrite this
 * small has no kept library, and a full regex parser would cost a hook process its loading.
 *
 * Example: `walkPattern("a[b]\\c", (s, i) => [s[i]!.toUpperCase(), 0])` -> `"A[b]\\c"`.
 */
export function walkPattern(src: string, visit: (src: string, i: number, inClass: boolean) => readonly [string, number]): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === "\\") {
      out += c + (src[i + 1] ?? "");
      i++;
    } else if (inClass && c === "]") {
      inClass = false;
      out += c;
    } else if (!inClass && c === "[") {
      inClass = true;
      out += c;
    } else {
      const [text, skip] = visit(src, i, inClass);
      out += text;
      i += skip;
    }
  }
  return out;
}
