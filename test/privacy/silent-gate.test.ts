/**
 * The silent rules' shared gate (runtime/privacy/silent-secrets.ts `silentFacts`) against the
 * scans it stands before: it says "no" only where the scan finds nothing. Values of every shape
 * the value tests take, alone (fast-check, seeded); texts made of the scans' own places around
 * such values; and every string of the real sessions when the shared data sets are present.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findSilentFields } from "../../runtime/privacy/silent-fields.js";
import { findSilentLines } from "../../runtime/privacy/silent-lines.js";
import { findSilentPaths } from "../../runtime/privacy/silent-paths.js";
import { silentFacts } from "../../runtime/privacy/silent-secrets.js";
import { generatedRun, typedPassword } from "../../runtime/privacy/silent-shapes.js";
import { sharedDatasets } from "../transcripts/fixtures.js";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const chars = (alphabet: string, min: number, max: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(""));
/** Values of the shapes the value tests take, and near them: mixed, typed, hex, one case, base64, in parts, a UUID, a `0x` key. */
const value = fc.oneof(
  chars(UPPER + LOWER + DIGITS, 8, 40),
  chars(UPPER + LOWER + DIGITS + "!#$%&*?@^~:|\\", 8, 30),
  chars("0123456789abcdef", 8, 70),
  chars("0123456789ABCDEF", 8, 40),
  chars(LOWER + DIGITS, 10, 50),
  chars(UPPER + DIGITS, 10, 50),
  chars(UPPER + LOWER + DIGITS + "+/", 12, 60).map((s) => `${s}=`),
  chars(LOWER + DIGITS + "_.~-", 12, 60),
  chars(LOWER + "_.-/", 12, 40),
  fc.tuple(chars("0123456789abcdef", 12, 20), fc.constantFrom("_", ".", "~", "-"), chars(LOWER, 3, 8), fc.boolean()).map(([h, sep, w, first]) => (first ? `${h}${sep}${w}` : `${w}${sep}${h}`)),
  fc.tuple(chars("0123456789abcdef", 8, 8), chars("abcdef", 12, 12), chars("0123456789abcdef", 4, 4)).map(([a, b, c]) => `${a}-${c}-${c}-${c}-${b}`),
  chars("0123456789abcdef", 32, 64).map((s) => `0x${s}`),
);
/** Places the argument and line scans read, each with a value in it. */
const PLACES: ReadonlyArray<(v: string) => string> = [
  (v) => `$ openssl rand -base64 48\n${v}`,
  (v) => `PS C:\\ops> $c.GetNetworkCredential().Password\n\n  ${v}\n`,
  (v) => `ana\n${v}`,
  (v) => `NAME      VALUE      TYPE\napi_key   ${v}   SecureString\n`,
  (v) => `ftp = FTP_TLS("ftp.x.example", "acme-in", "${v}")`,
  (v) => `imap.login("ops-reader", "${v}")`,
  (v) => `switch-a   192.0.2.40   netadmin   ${v}`,
  (v) => `  ExecStart=/opt/relay/bin/relayd --region eu2 ${v}`,
  (v) => `./vpn-up.sh ${v}`,
  (v) => `see this: $ sentry-cli login ${v}`,
  (v) => `CMD ["run", "--quiet", "${v}"]`,
  (v) => `ip xfrm state add aead rfc4106(gcm(aes)) ${v} 128`,
  (v) => `export X=${v}`,
  (v) => `POST https://ingest.vendor.example/ingest/${v}/events`,
  (v) => `curl https://rpc.chain.example/v2/${v}`,
  (v) => `ffmpeg -i in.mp4 -f flv rtmp://live.example/app/${v}`,
  (v) => `https://files.example/d/${v}/installer.exe`,
  (v) => `GET /alert/${v}/platform`,
];
const text = fc.tuple(fc.nat(PLACES.length - 1), value, fc.constantFrom("", "\n", "ok, done.\n", "\\n", " (see above)")).map(([i, v, tail]) => `${PLACES[i]!(v)}${tail}`);

describe("the silent rules' shared gate (silentFacts)", () => {
  it("holds on every value the value tests take (fast-check)", () => {
    let taken = 0;
    fc.assert(
      fc.property(value, (v) => {
        const facts = silentFacts(v);
        if (typedPassword(v) || generatedRun(v) || generatedRun(v, false)) {
          taken++;
          expect(facts.lines, v).toBe(true);
          if (/^[A-Za-z0-9_+/=.~-]+$/.test(v) && /\d/.test(v) && /[A-Za-z]/.test(v)) expect(facts.fields, v).toBe(true);
        }
      }),
      { numRuns: 20000, seed: 1313 },
    );
    // Not vacuous: the value tests take many of the values.
    expect(taken).toBeGreaterThan(3000);
  });

  it("says no only where the argument, line and path scans find nothing (fast-check)", () => {
    let found = 0;
    let pathsFound = 0;
    let ruledOut = 0;
    fc.assert(
      fc.property(text, (t) => {
        const facts = silentFacts(t);
        const fields = findSilentFields(t).length > 0;
        const lines = findSilentLines(t).length > 0;
        const paths = findSilentPaths(t).length > 0;
        if (fields) expect(facts.fields, t).toBe(true);
        if (lines) expect(facts.lines, t).toBe(true);
        if (paths) expect(facts.paths, t).toBe(true);
        if (paths) pathsFound++;
        if (fields || lines || paths) found++;
        if (!facts.fields && !facts.lines && !facts.paths) ruledOut++;
      }),
      { numRuns: 20000, seed: 1314 },
    );
    // Not vacuous: the scans find values in many texts, and the gate rules many out.
    expect(found).toBeGreaterThan(2000);
    expect(pathsFound).toBeGreaterThan(300);
    expect(ruledOut).toBeGreaterThan(1000);
  });

  const dir = join(sharedDatasets, "claude-transcripts");
  it.skipIf(!existsSync(dir))("says no only where the scans find nothing, on every string of the real sessions", () => {
    const files = (d: string): string[] => readdirSync(d).sort().flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : n.endsWith(".jsonl") ? [join(d, n)] : []));
    const strings = (x: unknown, out: string[]): void => {
      if (typeof x === "string") {
        if (x.length >= 10) out.push(x);
      } else if (Array.isArray(x)) for (const y of x) strings(y, out);
      else if (x !== null && typeof x === "object") for (const y of Object.values(x)) strings(y, out);
    };
    let texts = 0;
    let found = 0;
    let ruledOut = 0;
    for (const f of files(dir)) {
      for (const line of readFileSync(f, "utf8").split("\n")) {
        if (line.trim() === "") continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          continue;
        }
        const out: string[] = [];
        strings(parsed, out);
        for (const t of out) {
          texts++;
          const facts = silentFacts(t);
          const fields = findSilentFields(t).length > 0;
          const lines = t.includes("\n") && findSilentLines(t).length > 0;
          const paths = findSilentPaths(t).length > 0;
          if (fields && !facts.fields) expect(["fields", t.slice(0, 300)]).toEqual(["fields", "(the gate said no)"]);
          if (lines && !facts.lines) expect(["lines", t.slice(0, 300)]).toEqual(["lines", "(the gate said no)"]);
          if (paths && !facts.paths) expect(["paths", t.slice(0, 300)]).toEqual(["paths", "(the gate said no)"]);
          if (fields || lines || paths) found++;
          if (!facts.fields && !facts.lines && !facts.paths) ruledOut++;
        }
      }
    }
    // The real sessions hold few such values (none when last counted): the check is that the
    // gate rules out none of them, over many texts, most of which it rules out.
    expect(texts).toBeGreaterThan(1000);
    expect(ruledOut).toBeGreaterThan(texts / 2);
    process.stdout.write(`silent gate on the real sessions: ${texts} strings, ${found} with a silent finding, ${ruledOut} ruled out by the gate\n`);
  });
});
