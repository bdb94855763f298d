/**
 * Secrets set in an operating system's or a network daemon's own config syntax (issue 34's ninth
 * pass, the seventh held-out set's misses, by form; docs/privacy.md "A seventh held-out set";
 * own-rules.ts runs them after own-contexts.ts's rules, before the random-token rule), each as its
 * tool documents it: strongSwan's ipsec.secrets (`… : PSK "…"`, EAP, XAUTH, NTLM), an OpenVPN
 * static key block, net-snmp's `createUser` (its auth and privacy passphrases), a Windows answer
 * file's (unattend.xml) password `<Value>`, a NATS creds file's nkey seed block. Each has its own
 * pre-filter witness (witness-places.ts, the ninth pass's block).
 *
 * Example: `1.2.3.4 : PSK "…"` -> `1.2.3.4 : PSK "[REDACTED:ipsec-secret]"`.
 */
import type { OwnRule } from "./own-rules.js";
import { looksLikeValueNotSecret } from "./own-shapes.js";

/** A passphrase a config holds: not a placeholder, a reference or a marker. */
const held = (v: string): boolean => !looksLikeValueNotSecret(v) && !/^[$%<{]|\[REDACTED/.test(v);

export const CONFIG_RULES: readonly OwnRule[] = [
  {
    kind: "ipsec-secret",
    // strongSwan's and Libreswan's ipsec.secrets: `[<selectors>] : PSK|EAP|XAUTH|NTLM <secret>`,
    // the secret a quoted string, 0x hex or 0s base64 (`: RSA <file>` names a key file, no secret;
    // "Auth: PSK (pre-shared key)" in prose has neither quotes nor 0x/0s).
    need: (t) => /:[ \t]*(?:PSK|EAP|XAUTH|NTLM)[ \t]/i.test(t),
    re: /(:[ \t]*(?:PSK|EAP|XAUTH|NTLM)[ \t]+)(["']?)((?!\[REDACTED)(?:(?<=["'])[^"'\n]{4,}|0[xXsS][0-9A-Za-z+/=]{8,}))\2/gi,
    replace: (m, pre, q, value) => (held(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "openvpn-static-key",
    // OpenVPN's static key (tls-auth, tls-crypt, secret): 2048 bits of hex between its BEGIN and
    // END lines, inline in a .ovpn or in its own file; a block cut by a clip mark before its END
    // line (its last line a part), or after its BEGIN line (a summary's "…nVPN Static key V1-----"):
    // then the hex lines before the END line.
    need: (t) => t.includes("OpenVPN Static key"),
    re: /(-----BEGIN OpenVPN Static key V\d-----\s*)([0-9a-fA-F]{16,}(?:\s+[0-9a-fA-F]+)*)|(?<![0-9A-Za-z])[0-9a-fA-F]+(?:\s+[0-9a-fA-F]{16,})+(?=\s*-----END OpenVPN Static key V\d-----)/g,
    replace: (m, pre) => (pre ? `${pre}${m}` : m),
  },
  {
    kind: "snmp-passphrase",
    // net-snmp's `createUser [-e ENGINEID] <user> (MD5|SHA|SHA-224…SHA-512) <authpass> [DES|AES… [<privpass>]]`
    // (snmpd.conf, /var/lib/net-snmp): the authentication passphrase here, the privacy one below.
    need: (t) => t.includes("createUser"),
    re: /(\bcreateUser[ \t]+(?:-e[ \t]+\S+[ \t]+)?\S+[ \t]+(?:MD5|SHA(?:-?\d{3})?)[ \t]+)(["']?)((?!\[REDACTED)[^\s"']{8,})\2/g,
    replace: (m, pre, q, value) => (held(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "snmp-passphrase",
    need: (t) => t.includes("createUser"),
    re: /(\bcreateUser[ \t]+(?:-e[ \t]+\S+[ \t]+)?\S+[ \t]+(?:MD5|SHA(?:-?\d{3})?)[ \t]+\S+[ \t]+(?:DES|AES(?:-?\d{3})?)[ \t]+)(["']?)((?!\[REDACTED)[^\s"']{8,})\2/g,
    replace: (m, pre, q, value) => (held(value ?? "") ? `${pre}${q}${m}${q}` : `${pre}${q}${value}${q}`),
  },
  {
    kind: "unattend-password",
    // A Windows answer file (unattend.xml): `<AdministratorPassword>`, `<Password>` (AutoLogon,
    // LocalAccount), `<DomainPassword>`… hold their password in a `<Value>` element, in clear when
    // `<PlainText>true`, else base64 of it with the element's name appended (reversible): both.
    need: (t) => t.includes("<Value>"),
    // Windows Setup writes "*SENSITIVE*DATA*DELETED*" over it in the copy it keeps: no password.
    re: /(<(?:[A-Za-z]*Password)>\s*<Value>)((?!\[REDACTED|\*SENSITIVE\*DATA\*DELETED\*<)[^<\s]{4,})(?=<\/Value>)/g,
    replace: (m, pre, value) => (held(value ?? "") ? `${pre}${m}` : `${pre}${value}`),
  },
  {
    kind: "nkey-seed",
    // A NATS nkey seed, as the nkeys library encodes one: "S", the key's type (User, Account,
    // Operator, server Node, Cluster, curve X), then base32 to 58 characters, in a creds file's
    // `-----BEGIN USER NKEY SEED-----` block (nsc's and the NATS docs' form). A seed alone is not
    // read here: no literal of it could witness it cheaply. (A public nkey, "U…" of 56, is none.)
    need: (t) => t.includes("NKEY SEED-----"),
    re: /(-----BEGIN [A-Z]+ NKEY SEED-----\s*)(S[UAONCX][A-Z2-7]{56})(?![A-Za-z0-9_-])/g,
    replace: (m, pre) => `${pre}${m}`,
  },
];
