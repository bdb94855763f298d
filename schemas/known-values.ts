/**
 * A developer's known values as pushed to an Errata server (`errata secrets push`,
 * `PUT /v1/known-values`): the strong values only, as salted hashes under the push's own
 * salt, each with 8 bits or fewer of its salted fingerprint (runtime/privacy/known-push.ts);
 * never a value. The server scrubs every text its tenant's requests bring with them
 * (runtime/server/known.ts).
 *
 * Example: `{"version": 1, "salt": "9f…(32 hex)", "fp_bits": 8, "entries": [{"n": 20, "fp": 183, "h": "4b1e…(64 hex)"}]}`.
 */
import { z } from "zod";

/** Most entries one push may hold (a developer's environment and .env files hold tens). */
export const MAX_PUSHED_VALUES = 2000;
/** Most fingerprint bits a server takes: more would tell whoever reads its files more of each value. */
export const MAX_PUSHED_FP_BITS = 8;

export const KnownPushSchema = z
  .object({
    version: z.literal(1),
    salt: z.string().regex(/^[0-9a-f]{32,128}$/, "32-128 lower-case hex digits"),
    fp_bits: z.number().int().min(1).max(MAX_PUSHED_FP_BITS),
    entries: z
      .array(
        z
          .object({
            n: z.number().int().min(8).max(4096),
            fp: z.number().int().min(0),
            h: z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 in 64 lower-case hex digits"),
          })
          .strict(),
      )
      .max(MAX_PUSHED_VALUES),
  })
  .strict()
  .superRefine((s, ctx) => {
    s.entries.forEach((e, i) => {
      if (e.fp >= 2 ** s.fp_bits) ctx.addIssue({ code: "custom", path: ["entries", i, "fp"], message: `a fingerprint of at most ${s.fp_bits} bits (under ${2 ** s.fp_bits})` });
    });
  });
export type KnownPush = z.infer<typeof KnownPushSchema>;
