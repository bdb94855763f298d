/**
 * The eleventh-set pass (runtime/privacy/assembled*.ts, carried-*.ts; docs/privacy.md "An
 * eleventh held-out set"): secrets assembled from pieces, carried encoded, in a table's secret
 * column or alone in a sentence, in forms the eleventh held-out set does not have, made up here;
 * and near texts each must keep (source code is full of joined strings). Values come from their
 * own seeded PRNG (mulberry32, seed 20261212), so the file holds no key.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../eval/prng.js";
import { allCleared, redactSecrets } from "../../runtime/privacy/redact.js";
import { assembledValues } from "../../runtime/privacy/assembled-find.js";
import { leakPieces } from "./corpus.js";

const own = mulberry32(20261212);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const r = (n: number, alphabet = ALNUM): string => {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(own() * alphabet.length)];
  return alphabet === ALNUM && n >= 8 ? `Qm${s.slice(2, -2)}58` : s;
};
const [a, b, c] = [r(12), r(12), r(12)];
const codes = (s: string): string => [...s].map((ch) => ch.charCodeAt(0)).join(", ");
const hexOf = (s: string): string => Buffer.from(s).toString("hex");
const pw = `${r(8)}x${r(7)}`;

/** Every 12-character window of the pieces is gone (as the held-out sets measure a leak). */
function leaks(out: string, pieces: readonly string[]): string[] {
  return pieces.flatMap((p) => leakPieces(p).filter((w) => out.includes(w)));
}

describe("redactSecrets: assembled values (issue 34, the eleventh set's pass)", () => {
  const taken: Array<[string, string[]]> = [
    // Joined by an operator, side by side, over lines, with a continuation.
    [`deploy_token = '${a}' + '${b}'`, [a + b]],
    [`$config['smtp_pass'] = "${a}" . "${b}" . "${c}";`, [a + b + c]],
    [`local webhook_secret = "${a}" ..\n    "${b}"`, [a + b]],
    [`#define SIGNING_SECRET "${a}" \\\n    "${b}"`, [a + b]],
    [`ApiToken := '${a}' || '${b}'`, [a + b]],
    // A join call, a list joined, a builder, a format string.
    [`apiSecret = String.join("", "${a}", "${b}")`, [a + b]],
    [`val accessToken = arrayOf("${a}", "${b}").joinToString(separator = "")`, [a + b]],
    [`password = strcat('${a}', '${b}')`, [a + b]],
    [`cred := fmt.Sprintf("%s%s", "${a}", "${b}")`, [a + b]],
    [`let authToken = [String](["${a}", "${b}"]).joined()`, [a + b]],
    // Chars and char codes.
    [`my_key = ''.join(chr(c) for c in [${codes(a + b)}])`, [a + b]],
    [`char apiKey[] = {${[...(a + b)].map((ch) => `'${ch}'`).join(",")}};`, [a + b]],
    // Variables joined in a template, and numbered parts.
    [`const p1 = "${a}";\nconst p2 = "${b}";\nconst clientSecret = \`\${p1}\${p2}\`;`, [a, b]],
    [`KEY_PART_1=${a}\nKEY_PART_2=${b}`, [a, b]],
  ];
  for (const [text, pieces] of taken)
    it(`takes ${JSON.stringify(text.slice(0, 60))}…`, () => {
      const out = redactSecrets(text).text;
      expect(leaks(out, pieces)).toEqual([]);
      expect(out).toContain("[REDACTED:");
      // The hook's one-scan check must not clear it either.
      expect(allCleared([text])).toBe(false);
    });

  const kept = [
    `throw new Error("missing field " + "name" + " in the config");`,
    `const url = base + "/v1/" + "users";`,
    `print("Hello, " .. "world" .. "!")`,
    `msg = "retry " "later"`,
    `console.log(String.fromCharCode(72, 101, 108, 108, 111, 44, 32, 87, 111, 114, 108, 100));`,
    `static final byte[] MAGIC = { 0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00 };`,
    `scopes = ["read:user", "repo", "workflow"]`,
    `cols = ", ".join(["id", "name", "created_at"])`,
    `Use \`npm test\` \`--watch\` and \`vitest\` \`run\` together.`,
    `He said "stop". "Why?" she asked.`,
    `label = "%s (%d)" % ("Issues", 42)`,
    `TIMEOUT_1=30\nTIMEOUT_2=60`,
  ];
  for (const text of kept)
    it(`keeps ${JSON.stringify(text.slice(0, 60))}`, () => {
      expect(redactSecrets(text).text).toBe(text);
    });

  it("reads the joined value on a line of its name, and places each part in the text", () => {
    const text = `db_password = "${a}" + "${b}"`;
    const [v] = assembledValues(text);
    expect(v?.line).toBe(`db_password = "${a + b}"\n${a + b}`);
    expect(v?.parts.map((p) => text.slice(p.start, p.end))).toEqual([`"${a}"`, `"${b}"`]);
  });
});

describe("redactSecrets: secrets carried encoded, in a table, alone in a sentence", () => {
  const key32 = r(64, HEX);
  const taken: Array<[string, string]> = [
    // base64 whose decoded head is a PEM line, a secret's name given a value, a URL's user.
    [`export SERVICE_PEM=${Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\n${pw}${pw}`).toString("base64")}`, Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\n${pw}${pw}`).toString("base64")],
    [`settings: ${Buffer.from(`{"client_secret":"${pw}"}`).toString("base64")}`, Buffer.from(`{"client_secret":"${pw}"}`).toString("base64")],
    [`MONGO_B64 ${Buffer.from(`mongodb://svc:${pw}@db1`).toString("base64")}`, Buffer.from(`mongodb://svc:${pw}@db1`).toString("base64")],
    // hex of printable text near a secret's word; a run handed to a decoder near one.
    [`# the vault password, hex so the shell keeps it\n${hexOf(pw)}`, hexOf(pw)],
    [`signing_key = bytes.fromhex("${key32}")`, key32],
    // A table's secret column: a delimited file, an SQL insert.
    [`login|secret_token|team\nci-bot|${a}|infra\nqa-bot|${b}|qa`, a],
    [`INSERT INTO api_clients (name, token, owner) VALUES ('ci', '${c}', 'ops');`, c],
    // A generated password alone in a sentence, no language's word for it needed.
    [`Kodi ya seva ya majaribio ni ${pw} usiishiriki na mtu yeyote.`, pw],
  ];
  for (const [text, secret] of taken)
    it(`takes ${JSON.stringify(text.slice(0, 60))}…`, () => {
      const out = redactSecrets(text).text;
      expect(leaks(out, [secret])).toEqual([]);
      expect(allCleared([text])).toBe(false);
    });

  const kept = [
    `sum, _ := hex.DecodeString("${key32}") // expected sha256 of the fixture`,
    `echo ${Buffer.from("hello world, this is only a greeting").toString("base64")} | base64 -d`,
    `name,email,role\nAna,ana.example,admin`,
    `| option | token | meaning |\n|---|---|---|\n| --color | never | plain output |`,
    `The release tag is v2.14.3 and the build id was shipped on Monday to everyone.`,
    `We renamed the class HttpClient2Factory yesterday, see the changelog for details.`,
  ];
  for (const text of kept)
    it(`keeps ${JSON.stringify(text.slice(0, 60))}`, () => {
      expect(redactSecrets(text).text).toBe(text);
    });
});
