/**
 * A secret told by the line before it or by a table's column, nothing on its own line naming it
 * (docs/privacy.md "A twelfth held-out set"):
 * - printed: a prompt's command line that names a secret, a password, a token, a credential or a
 *   random generator (`gcloud secrets versions access …`, `$c.GetNetworkCredential().Password`,
 *   `openssl rand -base64 48`), and not a public key, fingerprint, digest or id; then the value
 *   alone on the next line that is not blank;
 * - a pair: a line holding one user name, then a line holding one typed password (a virtual
 *   users file, a two-line credentials file);
 * - a key/value listing (a header row with a `VALUE` column): a generated key in that column.
 *
 * Example: `findSilentLines("$ openssl rand -base64 48\n<64 characters of base64>")` -> the value's span;
 * `findSilentLines("$ wg pubkey < office.key\nmEV9q5…+20=")` -> none.
 */
import { generatedRun, typedPassword, UUID } from "./silent-shapes.js";

// A prompt at the line's start or after words and a blank (a message's own words before a pasted command: "see this: $ …"); "> " is a reply's quote mark.
const PROMPT = /(?:^|\s)(?:[$%❯]\s+|PS[^>\n]{0,80}>\s*)|^\s*(?:#\s+|[\w.@-]+[:~][^\n$#]{0,80}[$#]\s+)/;
const PRINTS_SECRET = /secret|passw|passphrase|token|credential|decrypt|\brand\b|random|genpass|pwgen|private[_-]?key|get[_-]?key\b/i;
const PUBLIC = /pub(?:lic)?\b|pubkey|fingerprint|digest|checksum|sha\d*sum|hash|\buid\b|\bid\b|rev-parse|--version|--help/i;
const USER_LINE = /^\s*[a-z][a-z0-9._-]{2,31}\s*$/;

function aloneValue(line: string): [number, string] | null {
  const m = /^\s*(\S+)\s*$/.exec(line);
  if (m === null) return null;
  return [line.indexOf(m[1]!), m[1]!];
}

/** Every span the file's comment describes. */
export function findSilentLines(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const lines = text.split("\n");
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i]!;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === "") j++;
    const next = lines[j];
    if (next === undefined) break;
    const alone = aloneValue(next);
    if (alone !== null && /^[\w+/=.~-]+$/.test(alone[1]) && PROMPT.test(line) && PRINTS_SECRET.test(line) && !PUBLIC.test(line) && !PROMPT.test(next) && !UUID.test(alone[1])) {
      // Hex too: the command line names no digest, fingerprint or hash (PUBLIC).
      if (generatedRun(alone[1]) || typedPassword(alone[1])) found.push([starts[j]! + alone[0], starts[j]! + alone[0] + alone[1].length]);
    }
    if (j === i + 1 && alone !== null && USER_LINE.test(line) && typedPassword(alone[1])) found.push([starts[j]! + alone[0], starts[j]! + alone[0] + alone[1].length]);
    const column = /(?:^|\s)(VALUE|Value)(?=\s|$)/.exec(line);
    if (column !== null && line.trim().split(/\s+/).length >= 3) {
      const col = column.index + column[0].indexOf(column[1]!);
      for (let k = i + 1; k < lines.length && lines[k]!.trim() !== ""; k++) {
        const row = lines[k]!;
        const cell = /^\S+/.exec(row.slice(col));
        if (cell === null || (col > 0 && !/\s/.test(row[col - 1] ?? " "))) continue;
        if (generatedRun(cell[0], false)) found.push([starts[k]! + col, starts[k]! + col + cell[0].length]);
      }
    }
  }
  return found;
}
