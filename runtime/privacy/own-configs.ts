/**
 * Secrets set in a network daemon's own config syntax (issue 34's ninth pass, the seventh held-out
 * set's misses, by form; docs/privacy.md "A seventh held-out set"; own-rules.ts runs them after
 * own-contexts.ts's rules, before the random-token rule), as its tool documents it: an OpenVPN
 * static key block. The pass's other rules (strongSwan's ipsec.secrets, net-snmp's `createUser`,
 * a Windows answer file's password `<Value>`, a NATS creds file's nkey seed block) were replaced
 * by the context rule (context-secrets.ts; docs/privacy.md "Context, not families") and deleted.
 *
 * Example: `-----BEGIN OpenVPN Static key V1-----\n<hex lines>` -> the hex lines are
 * `[REDACTED:openvpn-static-key]`.
 */
import type { OwnRule } from "./own-rules.js";

export const CONFIG_RULES: readonly OwnRule[] = [
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
];
