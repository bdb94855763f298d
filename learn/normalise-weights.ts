/**
 * Sample weights scaled to mean 1 over the rows, in place. Why: in an L2 fit the objective is
 * Σ w_i·loss_i + (l2/2)·‖W‖², so multiplying every weight by c acts like dividing l2 by c,
 * and Platt's targets count weighted positives; design weights (1 / inclusion probability,
 * calibrated to corpus counts) have an arbitrary scale, and the fit must not depend on it.
 * Scaled to mean 1, weights [2, 2, 4] and [20, 20, 40] give the same fit, and all-ones
 * weights are left as they are. A zero total is left alone (the caller refuses it).
 *
 * Example: normaliseToMeanOne(Float64Array.of(2, 2, 4)) -> [0.75, 0.75, 1.5].
 */
export function normaliseToMeanOne(w: Float64Array | number[]): Float64Array | number[] {
  let sum = 0;
  for (let i = 0; i < w.length; i++) sum += w[i]!;
  if (!(sum > 0)) return w;
  const k = w.length / sum;
  for (let i = 0; i < w.length; i++) w[i] = w[i]! * k;
  return w;
}
