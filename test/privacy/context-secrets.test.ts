/**
 * The context rule (runtime/privacy/context-secrets.ts): a secret told by a word that names it,
 * wherever the word stands, and one value test. Examples written for this file (none from a
 * fixture set): each kind of evidence in forms of its own, and near texts kept (a hash, an id, a
 * public key, a reference, prose about passwords, code that names keys).
 */
import { describe, expect, it } from "vitest";
import { contextValue, findContextSecrets } from "../../runtime/privacy/context-secrets.js";
import { mayHoldSecret } from "../../runtime/privacy/prefilter.js";
import { redactSecrets } from "../../runtime/privacy/redact.js";

const VALUE = "Qm7vR2xK9tLp4Wz8";
const values = (t: string): string[] => findContextSecrets(t).map(([s, e]) => t.slice(s, e));

describe("the context rule: a word that names a secret, then one value", () => {
  it("takes the value after a name in any syntax on the same line", () => {
    for (const t of [
      `  "smtpPassword" => '${VALUE}',`, // a PHP array
      `(setq my-imap-password "${VALUE}")`, // Emacs Lisp
      `$env:SERVICE_API_KEY = "${VALUE}"`, // PowerShell
      `let creds = Credentials::new("svc-report", "${VALUE}");`, // Rust, after the user
      `| billing | REPORTS_TOKEN | ${VALUE} |`, // a Markdown table's row
      `<entry><string>DbPassword</string><string>${VALUE}</string></entry>`, // a plist-like pair
      `auth-token: ${VALUE}`,
      `deploy --vault-pass ${VALUE} --env prod`, // a flag
    ]) expect(values(t), t).toEqual([VALUE]);
  });

  it("takes the value after a word for password in prose, in several languages", () => {
    for (const t of [
      `la contraseña del router nuevo es ${VALUE}, no la compartas`,
      `o wifi do escritório tem a senha ${VALUE} desde ontem`,
      `das Kennwort für den Testserver lautet ${VALUE}`,
      `пароль от стенда: ${VALUE}`,
      `新服务器的密码是 ${VALUE} 请勿外传`,
      `テスト環境のパスワードは ${VALUE} です`,
      `ανέβασα τον κωδικό ${VALUE} στο vault`,
    ]) expect(values(t), t).toEqual([VALUE]);
  });

  it("takes a value alone on the line after a command or a sentence that names a secret", () => {
    expect(values(`$ vault kv get -field=password infra/mail\n${VALUE}\n$ exit`)).toEqual([VALUE]);
    expect(values(`Your new recovery passphrase is below, write it down:\n\n    ${VALUE}\n`)).toEqual([VALUE]);
    expect(values(`worker-3  | generated admin password:\nworker-3  |\nworker-3  | ${VALUE}`)).toEqual([VALUE]);
    expect(values(`<DomainPassword>\n  <Value>${VALUE}</Value>`)).toEqual([VALUE]);
  });

  it("takes a column's values under a header that names a secret", () => {
    const t = `host,login,passwd,notes\nmail.example.org,ana,${VALUE},work\nnas.lan,root,Zr8pQ3mWx7Ka2v,home`;
    expect(values(t)).toEqual([VALUE, "Zr8pQ3mWx7Ka2v"]);
  });

  it("keeps what is no secret beside a secret's word", () => {
    for (const t of [
      "the password hash is 5f4dcc3b5aa765d61d8327deb882cf99",
      "api_key_id: 7c2d9e4f1a3b5c6d8e0f2a4b6c8d0e1f",
      "set DB_PASSWORD to ${DB_PASSWORD} before you run it",
      "token = os.environ['SERVICE_TOKEN2']",
      "the key is in ~/.config/tool/key.json",
      "password: changeme123",
      "userPassword: {SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=",
      "the session lasted 42 minutes on node-7b",
      "press the key combination Ctrl+Shift+K2 to open it",
      "gpg --list-secret-keys 4F3A9C2E7B1D8A60",
      "$ age-keygen -y key.txt\nage1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
      "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGXk3p8BEADc7Yq2vLr9Wm4Tn6Pz1Ks8Hb3Jd5Fg0Qa7Xc2Ve9Ru4Ny6Mt1",
      "export const TOKEN_LIMIT = 4096; // tokens per request",
      "The password policy wants 12 characters, a digit and a symbol.",
      "rotate the signing key (kid 2026-11-rsa) next week",
      "| name | api_key | owner |\n|---|---|---|\n| search | ${SEARCH_KEY} | ops |",
    ]) expect(values(t), t).toEqual([]);
  });

  it("judges a value by its shape: generated, random, or a password's mix after a strong name", () => {
    expect(contextValue("0bbsldtxzt86", "strong")).toBe(true);
    expect(contextValue("0bbsldtxzt86", "weak")).toBe(false);
    expect(contextValue("9f2c4e6a8b0d1f3e", "strong")).toBe(true);
    expect(contextValue("9f2c4e6a8b0d1f3e", "weak")).toBe(false);
    expect(contextValue("build-cache-v2-linux", "strong")).toBe(false);
    // Words before a generated body are a key's prefix, not a slug of words.
    expect(contextValue("tok_prod_Zx81Qm4Lr7Tb2Wc9Vn6K", "weak")).toBe(true);
    expect(contextValue("feature_flags_rollout_percentage", "strong")).toBe(false);
    expect(contextValue("UGFzc3dvcmQ6", "weak")).toBe(false); // base64 of "Password:"
    expect(contextValue("dXNlcjpoNGNrbWUyMDI2", "weak")).toBe(true); // base64 of "user:h4ckme2026"
  });

  it("is what the redactor and its pre-filter do: the value becomes a marker, and a text with a secret's word and no value is cleared", () => {
    expect(redactSecrets(`<entry><string>DbPassword</string><string>${VALUE}</string></entry>`).text).toBe("<entry><string>DbPassword</string><string>[REDACTED:context-secret]</string></entry>");
    expect(mayHoldSecret(`la contraseña del router nuevo es ${VALUE}, no la compartas`)).toBe(true);
    expect(mayHoldSecret("the new password is kept in the team's vault since Monday")).toBe(false);
  });
});
