/**
 * Is a rule worth holding out? The power of the holdout's difference (treated minus held out)
 * to exclude zero, by the normal approximation with independent chances (an optimistic figure:
 * clustering within sessions widens the real interval; docs/causal.md measures by how much):
 *   se = sqrt(p_t(1−p_t)/n_t + p_h(1−p_h)/n_h), power = Φ(|p_h − p_t|/se − z).
 * The held-out share is 1/oneIn of the chances over `weeks`.
 *
 * Example: 60 chances a week, slip rate 0.048 held out, the check halving it, 1 in 5 held out,
 * 4 weeks: n_h = 48, n_t = 192, se = 0.0328, power ≈ 0.11 -> not worth testing yet.
 */
import jStat from "jstat";
import { CalibrationError } from "./errors.js";

export interface HoldoutPower {
  chancesHeldOut: number;
  chancesTreated: number;
  /** Expected half-width of the 95% interval of the difference. */
  halfWidth: number;
  power: number;
}

export function holdoutPower(o: { chancesPerWeek: number; weeks: number; oneIn: number; rateHeldOut: number; rateTreated: number; confidence?: number }): HoldoutPower {
  const confidence = o.confidence ?? 0.95;
  if (!(o.chancesPerWeek > 0) || !(o.weeks > 0)) throw new CalibrationError("BAD_VALUE", "holdout power", "chances a week and weeks above 0", `${o.chancesPerWeek}, ${o.weeks}`);
  if (!Number.isInteger(o.oneIn) || o.oneIn < 2) throw new CalibrationError("BAD_OPTION", "holdout power", "one_in, a whole number of at least 2", String(o.oneIn));
  for (const p of [o.rateHeldOut, o.rateTreated]) if (!(p >= 0 && p <= 1)) throw new CalibrationError("BAD_VALUE", "holdout power", "rates in [0, 1]", String(p));
  const n = o.chancesPerWeek * o.weeks;
  const nh = n / o.oneIn;
  const nt = n - nh;
  const se = Math.sqrt((o.rateTreated * (1 - o.rateTreated)) / nt + (o.rateHeldOut * (1 - o.rateHeldOut)) / nh);
  const z = jStat.normal.inv(1 - (1 - confidence) / 2, 0, 1);
  const power = se === 0 ? (o.rateHeldOut === o.rateTreated ? 0 : 1) : jStat.normal.cdf(Math.abs(o.rateHeldOut - o.rateTreated) / se - z, 0, 1);
  return { chancesHeldOut: nh, chancesTreated: nt, halfWidth: z * se, power };
}
