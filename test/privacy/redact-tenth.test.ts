/**
 * The tenth-set pass's families (runtime/privacy/own-families-10.ts; docs/privacy.md "A tenth
 * held-out set"): for each family, secrets in forms the tenth held-out set does not have, made up
 * here, and near texts each family must keep. Values come from their own seeded PRNG (mulberry32,
 * seed 20261211), so the file holds no key.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../eval/prng.js";
import { redactSecrets } from "../../runtime/privacy/redact.js";
import { mayHoldSecret } from "../../runtime/privacy/prefilter.js";

const own = mulberry32(20261211);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const CONS = "bcdfghjklmnpqrstvwxz";
const r = (n: number, alphabet = ALNUM): string => {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(own() * alphabet.length)];
  // Both cases and digits where the alphabet has them, so a short draw is never all one class.
  return alphabet === ALNUM && n >= 8 ? `kQ${s.slice(2, -2)}47` : s;
};
const bytes = (n: number): number[] => Array.from({ length: n }, () => Math.floor(own() * 256));
const b64 = (head: number[], n: number): string => Buffer.from([...head, ...bytes(n)]).toString("base64");
const [v16, v20, v24, v32] = [r(16), r(20), r(24), r(32)];
const [hex32, hex64] = [r(32, HEX), r(64, HEX)];
const seed = r(32, B32).replace(/^../, "K7");
const mixed12 = `${r(1, "BCDFGHJKLMNPQRSTVWXZ")}${r(2, CONS)}${r(1, "BCDFGHJKLMNPQRSTVWXZ")}${r(3, CONS)}9${r(1, "BCDFGHJKLMNPQRSTVWXZ")}${r(1, CONS)}38`;
const codes = [0, 1, 2].map(() => `${r(4, HEX)}-${r(4, HEX)}-${r(4, HEX)}`);
const diskKey = Array.from({ length: 8 }, () => r(6, "0123456789")).join("-");
const licenceLine = (): string => `${r(5)}7 ${r(5)}2 ${r(5)}9 ${r(5)}4`;
const licence = licenceLine();
const keyFile = b64([0x45, 0x64], 64);
const composed = `${r(1, "BCDFGHJKLMNPQRSTVWXZ")}${r(6, CONS)}2026!`;
const group = (): string => r(5 + Math.floor(own() * 3), CONS).replace(/^(..)./, "$1a");
const pkcs12 = b64([0x30, 0x82, 0x0a, 0x1b, 0x02, 0x01, 0x03, 0x30, 0x82], 120);
const pkcs8 = b64([0x30, 0x82, 0x04, 0xbd, 0x02, 0x01, 0x00, 0x30, 0x0d], 120);
const jceks = b64([0xce, 0xce, 0xce, 0xce, 0x00, 0x00, 0x00, 0x02], 120);
const cert = b64([0x30, 0x82, 0x03, 0x77, 0x30, 0x82, 0x02, 0x5f, 0xa0, 0x03, 0x02, 0x01, 0x02], 120);

describe("redactSecrets: the tenth-set pass (issue 34: the tenth held-out set's misses, by family)", () => {
  const passphrase = `${group()} ${group()} ${group()}`;
  const taken: [string, string][] = [
    // A command line naming a secret, then its output alone (a password manager's CLI, a REPL, PowerShell).
    [`$ bw get password github.com\n${v20}`, v20],
    [`>>> secrets.token_urlsafe(24)\n'${v32}'`, v32],
    [`PS C:\\ci> Get-Secret -Name deploy -AsPlainText\n${v24}`, v24],
    // A value announced by a tool: "…:" then the value (a blank line and a log prefix between), or "New value:".
    [`Your personal access token (it will not be shown again):\n\n    ${v32}`, v32],
    [`web-1  | Generated password for the admin user:\nweb-1  | ${v20}`, v20],
    [`Password changed for user "reports".\nNew value: ${v16}`, v16],
    // A two-column listing whose name ends in a secret's word.
    [`NAME              VALUE\nsmtp.password     ${v20}\nsmtp.port         587`, v20],
    [`role_id      1f0e4c7a\nAPI_TOKEN    ${v24}`, v24],
    // A wire protocol's log-in: POP3's PASS, SMTP's LOGIN after the base64 prompt.
    [`S: +OK ready\nC: USER ana\nS: +OK\nC: PASS ${v16}\nS: +OK logged in`, v16],
    [`S: 334 UGFzc3dvcmQ6\nC: ${Buffer.from(v16).toString("base64")}\nS: 235 ok`, Buffer.from(v16).toString("base64")],
    // A signed URL's signature, whatever its name's prefix or its place in the query.
    [`https://files.example.com/x.bin?X-Acme-Signature=${hex64}&X-Acme-Expires=600`, hex64],
    [`GET /c/blob?sig=${r(24)}%2B${r(18)}%3D&sv=2024-01-01&sp=r`, "%2B"],
    // Base64 of a private key's container, by its decoded head.
    [`SIGNING_KEYSTORE=${pkcs12}`, pkcs12.slice(0, 40)],
    [`"privateKey": "${pkcs8}"`, pkcs8.slice(0, 40)],
    [`keystore: ${jceks}`, jceks.slice(0, 40)],
    // An OTP seed: an otpauth URI's secret, a grouped base32 seed on a line about two-factor codes.
    [`otpauth://hotp/Acme:ana?counter=0&secret=${seed}&issuer=Acme`, seed],
    [`2FA setup key: ${seed.match(/.{4}/g)!.join(" ")}`, seed.slice(0, 4)],
    // Recovery or backup codes, and a recovery key of eight groups of six digits.
    [`Save your recovery codes:\n${codes.join("\n")}`, codes[1]!],
    [`Recovery key for disk0s2:\n${diskKey}`, diskKey],
    // A licence block's key lines.
    [`-----BEGIN LICENSE KEY-----\nAcme Pro, 5 seats\n${licence}\n${licenceLine()}\n-----END LICENSE KEY-----`, licence],
    // A URL named as a webhook, or on a hook's host.
    [`DEPLOY_WEBHOOK=https://ci.example.net/trigger/9/${r(18, "abcdefghijklmnopqrstuvwxyz0123456789").replace(/^../, "k4")}x7`, "trigger/9/k4"],
    [`POST https://webhooks.example.org/t/${r(24, "abcdefghijklmnopqrstuvwxyz0123456789").replace(/^.../, "a1b")}`, "t/a1b"],
    // A value put in a cookie jar by a cookie's name.
    [`jar.cookies["auth"] = "${hex64}"`, hex64],
    [`page.context.cookies.set('sid', '${v32}')`, v32],
    // A key file's base64 after its comment saying private key.
    [`Comment: ed25519 private key for deploy\n${keyFile}`, keyFile],
    // A password with its encryption type number; a Wi-Fi payload's P:.
    [` enable secret 0 ${v16}`, v16],
    [` key-string 7 ${hex32.toUpperCase()}`, hex32.toUpperCase()],
    [`WIFI:S:home-net;T:WPA;P:${v16};;`, v16],
    // A generated password as a command's argument.
    [`unrar x -p${mixed12} parts.rar`, mixed12],
    [`mosquitto_pub -h mqtt.local -u sensor -P ${mixed12} -t temp -m 21`, mixed12],
    // A passphrase of random letter groups, in quotes or after ":".
    [`age-keygen | age -p -o key.age # passphrase: ${passphrase.replace(/ /g, "-")}`, passphrase.replace(/ /g, "-")],
    [`Set the vault's phrase to "${passphrase}" please`, passphrase],
    // A literal piped into a command that reads a secret.
    [`printf "%s" "${v24}" | gh secret set DEPLOY_TOKEN`, v24],
    [`echo '${v20}' | podman secret create db_pw -`, v20],
    // A composed password in prose.
    [`temporary login is ${composed} until friday`, composed],
  ];
  it.each(taken)("takes the secret of %s", (text, secret) => {
    const out = redactSecrets(text).text;
    expect(out).toContain("[REDACTED:");
    expect(out).not.toContain(secret);
    expect(mayHoldSecret(text)).toBe(true);
  });
  it("takes a signature whose alphabet stands in for base64's", () => {
    const sig = `${r(40)}~${r(40)}__`;
    expect(redactSecrets(`https://cdn.example.net/a.mp4?Expires=1&Signature=${sig}&Key-Pair-Id=K1`).text).not.toContain(sig.slice(0, 20));
  });
  const kept = [
    // Near texts: output that is no secret, an id, a public value, words.
    `$ git rev-parse HEAD\n${r(40, HEX)}`,
    `$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:${r(43)} ana@laptop (ED25519)`,
    `The key fingerprint is:\nSHA256:${r(43)} ana@laptop`,
    "secret_id_ttl         0s\nsecret_id_num_uses    0",
    "C: PASS $POP_PASSWORD",
    `https://example.com/?sig=${"a".repeat(40)}`,
    `CERT_BASE64=${cert}`,
    "otpauth://totp/Acme:ana?issuer=Acme&digits=6",
    "TOTP code: 492039",
    "Recovery steps:\n1. Open the settings\n2. Choose reset\n3. Confirm it",
    "-----BEGIN LICENSE-----\nMIT License\nPermission is hereby granted, free of charge\n-----END LICENSE-----",
    "see https://hooks.example.com/docs/getting-started",
    `cookies["theme"] = "dark-mode-enabled"`,
    `untrusted comment: minisign public key\n${b64([0x45, 0x64], 40)}`,
    "WIFI:S:guest;T:nopass;;",
    "git checkout -b feature-login && docker run --name web -p 8080:80 nginx:1.25",
    `A good passphrase is "correct horse battery staple" and long.`,
    "Classifier, settled: typed prompts mean 3.68 us, p99 13.88 us",
    "export function listMonths(dir: string): MonthFiles[] {",
    "echo 'export PATH=$PATH:/opt/bin' | tee -a ~/.keys-notes",
    "we shipped the Summer2024! campaign last week",
    // Kept by place: ciphertexts to commit, published values, fingerprints, content names, ids, test vectors, references, placeholders.
    `api_key: ENC[AES256_GCM,data:${r(24)},iv:${r(32)},tag:${r(22)},type:str]`,
    `smtp_password: !vault |\n  $ANSIBLE_VAULT;1.2;AES256;dev\n  ${r(80, HEX)}`,
    `spec:\n  encryptedData:\n    apiKey: AgA${r(120)}`,
    `$ cat /srv/www/.well-known/acme-challenge/${r(43)}`,
    `Good "file" signature for ci with RSA key SHA256:${r(43)}`,
    `key: MD5E-s1024--${hex32}.csv`,
    `{"type":"tool_result","tool_use_id":"toolu_${r(24)}","content":"ok"}`,
    `{"event_id": "$${r(43)}", "type": "m.room.message"}`,
    `# RFC 4231 test vectors, test case 2\nkey = "${hex64}"`,
    "api_key: ref+gcpsecrets://acme-prod/api-key#/value",
    "DB_SECRET=arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/app/db-Xy12Ab",
    "KEY_NAME=projects/acme/secrets/api-key/versions/3",
    "TOKEN=«paste here»\nLICENSE=%%LICENSE%%",
    `it failed on build ${r(20)} yesterday`,
  ];
  it.each(kept)("keeps %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });
});
