/**
 * The twelfth-set pass's silent-secret rules (runtime/privacy/silent-*.ts; docs/privacy.md "A
 * twelfth held-out set"): secrets told by their position only, in forms, tools and libraries the
 * twelfth held-out set does not have, made up here, and near texts the rules must keep. Values
 * come from their own seeded PRNG (mulberry32, seed 20261212), so the file holds no key.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../eval/prng.js";
import { redactSecrets } from "../../runtime/privacy/redact.js";
import { mayHoldSecret } from "../../runtime/privacy/prefilter.js";
import { createHash } from "node:crypto";
import { keptBySilentPlace } from "../../runtime/privacy/silent-kept.js";

const own = mulberry32(20261212);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOWER = "abcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const r = (n: number, alphabet = ALNUM): string => {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(own() * alphabet.length)];
  // Both cases and digits where the alphabet has them, and letters beyond hex in a one-case run.
  return alphabet === ALNUM && n >= 8 ? `kQ${s.slice(2, -2)}47` : alphabet === LOWER && n >= 8 ? `q7${s.slice(2, -2)}x3` : s;
};
const [pw14, pw18, v24, v40] = [r(14), r(18), r(24), r(40)];
const [low32, hex40, hex64] = [r(32, LOWER), r(40, HEX), r(64, HEX)];
const uuid = `${r(8, HEX)}-${r(4, HEX)}-4${r(3, HEX)}-a${r(3, HEX)}-${r(12, HEX)}`;
const spaced = (s: string, sep: string): string => [...s].join(sep);

describe("redactSecrets: the twelfth-set pass (issue 34: silent secrets, by their position)", () => {
  const taken: [string, string][] = [
    // A call's quoted arguments in the usual order host, user, password, or after a login verb.
    [`client = pysftp.Connection("sftp.vendor.example", "drop", "${pw14}")`, pw14],
    [`imap.login("ops-reader", "${pw18}")`, pw18],
    [`$dbh = DBI->connect("dbi:Pg:dbname=crm;host=pg.lan", "crm_app", "${pw14}");`, pw14],
    [`HOSTS = [("edge-3", "192.0.2.14", "svc", "${pw18}")]`, pw18],
    [`    conn.Logon "ldap.corp.example", "svc-sync", "${pw14}"`, pw14],
    // A row of a header-less listing: host, user, password.
    [`switch-a   192.0.2.40   netadmin   ${pw14}`, pw14],
    // A command's positional argument after a program named by its path, or in a command's list.
    [`  ExecStart=/opt/relay/bin/relayd --region eu2 ${low32}`, low32],
    [`release: ./scripts/publish.sh staging ${hex40}`, hex40],
    [`    args: ["serve", "--port", "8080", "${v24}"]`, v24],
    [`$ sshpass-wrapper ${pw18} deploy@192.0.2.9`, pw18],
    [`	enc cbc(aes) 0x${hex64}`, hex64],
    // A key in a URL's path after a segment that says so, on an RPC endpoint, a stream key, a capability link.
    [`curl -X POST https://collect.example.net/v2/ingest/${low32}/batch`, low32],
    [`"POST /hooks/${v24} HTTP/1.1" 204`, v24],
    [`ARB_RPC=https://arb1.rpc.example.io/v2/${hex40}`, hex40],
    [`srt://live.example.tv:9000/app/${low32}`, low32],
    [`download: https://files.example.org/s/${v24}/report.pdf`, v24],
    [`<outline xmlUrl="https://pods.example.com/feed/private/${uuid}.xml"/>`, uuid],
    // A value printed alone after a command that names a secret or generates one.
    [`$ pass show infra/backup-key\n${pw18}`, pw18],
    [`PS> (Get-Credential).GetNetworkCredential().Password\n${pw14}`, pw14],
    [`% head -c 24 /dev/urandom | base64 # random\n${v40}`, v40],
    // A line with one user name, then one password.
    [`svc-reports\n${pw14}`, pw14],
    // A key/value listing's VALUE column.
    [`KEY              VALUE\ncache/host       redis.lan\ncache/auth       ${v40}`, v40],
    // Characters read out one by one, with words for their case, or in spaced groups.
    [`on the call she read it as ${spaced("x7Kq2mWp9R", " ")} and hung up`, spaced("x7Kq2mWp9R", " ")],
    [`caption: ${spaced("h3zrk8tw1q", ". ")}. thanks`, "h . 3"],
    [`voicemail: lowercase q, 7, uppercase T, lowercase z, 4, uppercase W, 9, lowercase k, 2 — call back`, "uppercase T, lowercase z"],
    [`code from the letter: k4m2 zx9p 7wqr t3hv`, "k4m2 zx9p"],
    // Read after the held-back third was scored (docs/privacy.md): base64's padding, a `--no-…` flag, a decrypting command's hex, a grouped stream key, hex pairs read out.
    [`ExecStart=/usr/bin/tunneld --peer 192.0.2.7:443 ${v40}=`, v40],
    [`  └─77 /opt/agent/bin/agent start --no-update ${v40}`, v40],
    [`$ vault-cli decrypt --name backup --output raw\n${hex64}`, hex64],
    [`-f flv rtmps://ingest.example.tv/app/${r(4, LOWER)}-${r(4, LOWER)}-9${r(3, LOWER)}-${r(4, LOWER)}`, "app/"],
    [`the pairing key on the sticker: ${spaced(hex40.slice(0, 32), " ").replace(/(\S) (\S)/g, "$1$2")}`, hex40.slice(0, 2)],
  ];
  it.each(taken)("takes the secret of %s", (text, secret) => {
    const out = redactSecrets(text).text;
    expect(out).toContain("[REDACTED:");
    expect(out).not.toContain(secret);
    expect(mayHoldSecret(text)).toBe(true);
  });

  const kept: string[] = [
    `imap.login("ops-reader", os.environ["IMAP_PASSWORD"])`,
    `conn = pymssql.connect("sql.lan", "report", None)`,
    `./scripts/check-sum.sh build/app-1.4.2.zip ${hex64}`,
    `git cherry-pick ${hex40}`,
    `./bin/resend-webhook ${uuid} --dry-run`,
    `$ gpg --recv-keys ${r(40, "0123456789ABCDEF")}`,
    `see https://git.example.org/acme/app/commit/${hex40}`,
    `GET /api/orders/${uuid}/items 200`,
    `https://cdn.example.net/assets/${r(22)}.woff2`,
    `$ git rev-parse HEAD\n${hex40}`,
    `$ ssh-keygen -y -f deploy.key\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA${r(43)} ops@ci`,
    `order number ${spaced("48213097", " ")} shipped`,
    `the commit is ${spaced("5e3a9c1b0f7d", " ")} on main`,
    `serial ${spaced("4C0A9E21BD", "-")} under warranty`,
    `lsblk: sdb1 ext4 UUID: ${uuid}`,
    `INSERT INTO users VALUES (3, 'argon2id$19$${r(22)}$${r(43)}');`,
    "a b c d e f g h i j are the first ten letters",
    `{"content":"Module /usr/lib/libz.so with build-id ${hex40}\\nStack trace"}`,
    `SHA256 Fingerprint=${Array.from({ length: 32 }, (_, i) => hex64.slice(2 * i, 2 * i + 2).toUpperCase()).join(":")}`,
    "the MAC on the label: 3c 22 fb 91 0a 7e",
    // An htpasswd line under JSON's escapes: one line, the user and its {SHA} hash after a path (an RFC 2307 scheme's hash is kept).
    `{"content":"# /srv/www/.htpasswd\\nops:{SHA}${createHash("sha1").update("errata silent kept").digest("base64")}"}`,
  ];
  it.each(kept)("keeps %s", (text) => {
    expect(redactSecrets(text).text).toBe(text);
  });

  it("keeps a finding by its place whichever rule found it (silent-kept.ts)", () => {
    const text = `fpr --recv-keys ${hex40.toUpperCase()}`;
    expect(keptBySilentPlace(text, text.length - 40, text.length)).toBe(true);
    const secret = `Secret ID    = ${uuid}`;
    expect(keptBySilentPlace(secret, secret.length - uuid.length, secret.length)).toBe(false);
  });
});
