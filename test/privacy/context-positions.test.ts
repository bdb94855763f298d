/**
 * The twelfth pass's context families (context-positions.ts, context-words-12.ts, and the names
 * read in context-find.ts) on own examples, none from a fixture set: each value taken where its
 * place or word tells it, and near texts kept. The values are made up here.
 */
import { describe, expect, it } from "vitest";
import { findContextSecrets } from "../../runtime/privacy/context-secrets.js";
import { contextSecretWitness } from "../../runtime/privacy/context-find.js";

const taken: Array<[string, string]> = [
  // pairs: a DSN's userinfo without a scheme, curl's -u with a key as the user, httpie's -a, a config's login=
  ['dsn: "reporter:Vq7rT2mXk9LpZ4@tcp(10.1.2.3:3306)/sales"', "Vq7rT2mXk9LpZ4"],
  ["curl https://api.example.test/v2/items -u k3Yq8ZrT5wLm2XvB9nC4pD7f: -G", "k3Yq8ZrT5wLm2XvB9nC4pD7f"],
  ["http -a ops:Hj4kR8sWq2ZmN6 POST https://svc.example.test/run", "Hj4kR8sWq2ZmN6"],
  ["peer backup.example.test login=mirror:Tz6yPq3VbN8kLw", "Tz6yPq3VbN8kLw"],
  // calls: a client constructor's generated argument, a connect call's password after its user
  ['api = new Acme\\Client("9c1e5f7a3b2d4c6e8f0a1b3c5d7e9f12")', "9c1e5f7a3b2d4c6e8f0a1b3c5d7e9f12"],
  ['storeClient, err := vault.New("8D2F4A6C8E0B1D3F5A7C9E1B3D5F7A9C2E4B6D8F0A1C3E5B7D9F1A3C5E7B9D1F")', "8D2F4A6C8E0B1D3F5A7C9E1B3D5F7A9C2E4B6D8F0A1C3E5B7D9F1A3C5E7B9D1F"],
  ["conn = pymssql.connect('db.internal', 'etl', 'Mw4nXq8ZtR2pLs')", "Mw4nXq8ZtR2pLs"],
  // printed: a file named as a secret, printed
  ["$ cat deploy/ci.token\nf8Kq2Lm9Zx4Rv7Tn3Bw6Yc1Pd5Hs0Ja\n$ ls", "f8Kq2Lm9Zx4Rv7Tn3Bw6Yc1Pd5Hs0Ja"],
  // names: an element's name, a CDATA value, a single-word flag, a key's bytes
  ['<Secret kind="app">Rk5tWq9ZmX2pLv8N</Secret>', "Rk5tWq9ZmX2pLv8N"],
  ['<entry key="db.password"><![CDATA[Gq4&Lm8Zx2Rv7T]]></entry>', "Gq4&Lm8Zx2Rv7T"],
  ["relayctl post --sec Qm3Zx8Lt5Rv2Wn7Pk4Yb9Hc6Df1Gs0Aj 'hello'", "Qm3Zx8Lt5Rv2Wn7Pk4Yb9Hc6Df1Gs0Aj"],
  ["link_key: [17, 203, 88, 4, 161, 59, 240, 12, 97, 130, 45, 222, 6, 183, 71, 150]", "17, 203, 88, 4, 161, 59, 240, 12, 97, 130, 45, 222, 6, 183, 71, 150"],
  // words: abbreviations, a pepper, SK, another language's word, "IDENTIFIED BY"
  ["DB_PSWD=Xw7Lq2Zm9Rt4Kp", "Xw7Lq2Zm9Rt4Kp"],
  ["AUTH_PEPPER=5b1c9e3f7a2d4b6c8e0f1a3b5c7d9e2f", "5b1c9e3f7a2d4b6c8e0f1a3b5c7d9e2f"],
  ["OBS_SK=Zr8Lq3Wx6Tm1Kp9Vn4Bc7Yd2Hs5Gf0Ja", "Zr8Lq3Wx6Tm1Kp9Vn4Bc7Yd2Hs5Gf0Ja"],
  ["La pasvorto por la servilo estas Kd8Zq3Lm7Xw2", "Kd8Zq3Lm7Xw2"],
  ["ALTER USER report IDENTIFIED BY 'Pz5Lk8Qw3Xm7Tn';", "Pz5Lk8Qw3Xm7Tn"],
  ['db_mima = "Lq8Zw3Xr6Tp1Km"', "Lq8Zw3Xr6Tp1Km"],
  // lines: a value a command types after a password prompt, a block's value under a secret's key
  ['expect "Password:"\nsend "Yt6Rk2Wq9Lm4Zx\\r"', "Yt6Rk2Wq9Lm4Zx"],
  ["Inputs:\n  AdminSecret:\n    Kind: text\n    Default: Hw3Lp8Zq5Tm2Xr7K", "Hw3Lp8Zq5Tm2Xr7K"],
  ["-----BEGIN Relay Shared Secret-----\n3f9a7c1e5b2d8f4a6c0e9b1d3f5a7c2e\n8b4d6f0a2c1e3b5d7f9a1c3e5b7d9f2a\n-----END Relay Shared Secret-----", "3f9a7c1e5b2d8f4a6c0e9b1d3f5a7c2e\n8b4d6f0a2c1e3b5d7f9a1c3e5b7d9f2a"],
  ["[credentials]\nuser = ops\nrelay = Xq9Lm2Zr7Tw4Kp8V\nregion = eu-west-1", "Xq9Lm2Zr7Tw4Kp8V"],
  ["secrets:\n  github: Qm3Zx8Lt5Rv2Wn7Pk4Yb9Hc6Df1Gs0Aj\n  db_name: analytics_prod_2024", "Qm3Zx8Lt5Rv2Wn7Pk4Yb9Hc6Df1Gs0Aj"],
];

const kept: string[] = [
  "git clone git@github.com:acme/tools.git",
  "mailto:ana.lima2024@example.test",
  "cygpath -u 'C:\\Users\\ana\\AppData\\Local\\Temp\\build2024'",
  "curl -u ana https://example.test/login",
  "client.containers.get('3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e')",
  'client = Client(project="analytics-2024-prod")',
  "$ cat README.md\nThe build id is 5f4dcc3b5aa765d61d8327deb882cf99abcdef12.",
  "$ cat ~/.ssh/id_ed25519.pub\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk2mQ8rT4vW9xZ1bC3dF5gJ7kL0nP2qR4sV6wY8zA1B ana@host",
  "ports: [80, 443, 8080, 8443, 9000, 9090, 3000, 3001, 5432, 6379, 27017, 11211, 2181, 9092, 5672, 15672]",
  "link_key: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
  "timeout_sec = 30",
  "<Secret>name-of-the-secret</Secret>",
  "Inputs:\n  PasswordLength:\n    Default: 16\n  SecretName:\n    Default: svc-db-credentials-2024",
  'expect "Password:"\nsend "$env(PW)\\r"',
  "mimalloc = 2.1.7",
  "$ cat ~/.ssh/authorized_keys\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk2mQ8rT4vW9xZ1bC3dF5gJ7kL0nP2qR4sV6wY8zA1B ana@host",
  "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END PUBLIC KEY-----",
  "-----BEGIN CERTIFICATE-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END CERTIFICATE-----",
  "services:\n  api:\n    secrets:\n      - db_password\n    image: acme/api-2024\n  worker:\n    secrets: [db_password]",
  "[credentials]\nuser = ops\nregion = eu-west-1\nprofile = analytics2024\n[other]\nkey_id = Xq9Lm2Zr7Tw4Kp8V",
];

describe("the twelfth pass's context families on own examples", () => {
  it.each(taken)("takes the value in %s", (text, value) => {
    const found = findContextSecrets(text).map(([s, e]) => text.slice(s, e));
    expect(found).toContain(value);
    expect(contextSecretWitness(text)).toBe(true);
  });
  it.each(kept)("keeps %s", (text) => {
    expect(findContextSecrets(text)).toEqual([]);
  });
});
