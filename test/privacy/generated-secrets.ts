/**
 * Real-looking secrets of the three kinds the over-redaction work trades against (docs/privacy.md,
 * "Still not met"): a random body behind a prefix no rule knows (an unknown provider's token,
 * standing alone, in a sentence or passed to a call), a random value under a secret's name
 * (generic names and made-up providers' names, in five quotings), and a random token with
 * neither (the same places as the prefixed ones). Drawn from a seeded PRNG, so
 * the repository holds no credential and every figure can be run again.
 *
 * Example: `generatedSecrets(34, 2)[0]` -> `{ kind: "prefixed", text: "…", secret: "…" }`; the
 * same seed and count give the same list.
 */
import { mulberry32 } from "../../eval/prng.js";

export interface GeneratedSecret {
  kind: "prefixed" | "named" | "bare";
  text: string;
  secret: string;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const LOWNUM = `${LOWER}0123456789`;
const HEX = "0123456789abcdef";

/**
 * `perKind` texts of each kind, in a fixed order. A value of the 62 or of one case gets two
 * digits (letters alone are a shape upstream's allowlists let through on purpose, and a key
 * generator's output of that length has them but about once in 20).
 */
export function generatedSecrets(seed: number, perKind: number): GeneratedSecret[] {
  if (perKind < 1) throw new Error(`generatedSecrets: perKind must be 1 or more, got ${perKind}`);
  const g = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(g() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(g() * xs.length)]!;
  const run = (n: number, a: string): string => Array.from({ length: n }, () => a[Math.floor(g() * a.length)]).join("");
  const withDigits = (n: number, a: string): string => {
    const s = run(n, a);
    const i = int(1, n - 3);
    return `${s.slice(0, i)}${int(0, 9)}${s.slice(i + 1, i + 2)}${int(0, 9)}${s.slice(i + 3)}`;
  };
  const value = (): string => {
    switch (int(0, 5)) {
      case 0: return withDigits(int(24, 64), ALNUM);
      case 1: return withDigits(int(16, 23), ALNUM);
      case 2: return withDigits(int(32, 52), LOWNUM);
      case 3: return run(pick([32, 40, 64]), HEX);
      case 4: return Buffer.from(Array.from({ length: 32 }, () => int(0, 255))).toString("base64");
      default: return [8, 4, 4, 4, 12].map((n) => run(n, HEX)).join("-");
    }
  };
  const out: GeneratedSecret[] = [];
  for (let i = 0; i < perKind; i++) {
    // A prefix of 2 to 5 letters, sometimes a version or type part, "_" or "-".
    const sep = pick(["_", "-"]);
    const prefix = `${run(int(2, 5), LOWER)}${g() < 0.3 ? `${sep}${pick(["v1", "v2", "pat", "live", "api", "sk"])}` : ""}${sep}`;
    const body = pick([() => withDigits(int(24, 64), ALNUM), () => withDigits(int(32, 52), LOWNUM), () => run(pick([32, 40, 64]), HEX), () => withDigits(int(20, 23), ALNUM)])();
    const token = `${prefix}${body}`;
    const text = pick([token, `use ${token} for the staging deploy`, `client = Client("${token}")`, `  --api ${token} \\`]);
    out.push({ kind: "prefixed", text, secret: body });
  }
  for (let i = 0; i < perKind; i++) {
    const provider = run(int(5, 8), LOWER);
    const name = pick(["api_key", "token", "key", "secret", "auth_token", "client_secret", "access_key", "secret_key", "api_secret", "private_token", `${provider}_token`, `${provider}_api_key`, `${provider}_key`, `${provider}_secret`]);
    const v = value();
    const upper = name.toUpperCase();
    const text = pick([`${name} = ${v}`, `${upper}="${v}"`, `"${name}": "${v}"`, `${name}: ${v}`, `export ${upper}=${v}`]);
    out.push({ kind: "named", text, secret: v });
  }
  // Drawn after the other two kinds, so that their texts are those of the seed whatever follows.
  for (let i = 0; i < perKind; i++) {
    const token = withDigits(int(24, 64), ALNUM);
    const text = pick([token, `use ${token} for the staging deploy`, `client = Client("${token}")`, `  --api ${token} \\`]);
    out.push({ kind: "bare", text, secret: token });
  }
  return out;
}

/** Whether a redacted text still holds the secret, or any 12 characters of it in a row. */
export function inClear(redacted: string, secret: string): boolean {
  if (secret.length <= 12) return redacted.includes(secret);
  for (let i = 0; i + 12 <= secret.length; i++) if (redacted.includes(secret.slice(i, i + 12))) return true;
  return false;
}
