"""Reference values for test/calibration and test/combiner.

scikit-learn is not installed on the machine that wrote these, so this script re-implements,
line for line, the parts of scikit-learn 1.5 that the tests compare against, on the libraries
that scikit-learn itself uses for them:

- Platt: sklearn.calibration._sigmoid_calibration (Platt's adjusted targets, the same loss,
  minimised with scipy.optimize.minimize L-BFGS-B; we tighten gtol to 1e-12 so the optimum
  is reached to more digits than sklearn's default gtol=1e-6 gives).
- Isotonic: sklearn.isotonic.IsotonicRegression(out_of_bounds="clip").fit/predict: zero
  weights dropped, ties merged by weighted mean (_make_unique), scipy.optimize.
  isotonic_regression (which sklearn >= 1.4 calls), linear interpolation, clipping.
- Brier and log loss: the formulas of sklearn.metrics.brier_score_loss / log_loss
  (eps = float64 eps), written in numpy.
- ECE (no sklearn equivalent): the equal-mass convention of calibration/reliability.ts,
  written again in numpy as a second, independent implementation.
- Softmax (multinomial) regression: the L2-penalised weighted objective minimised by scipy
  BFGS to a gradient norm below 1e-10, intercepts centred.

Run: python3 make_reference.py > reference.json   (numpy and scipy versions are recorded)
"""
import json
import math
import sys

import numpy as np
import scipy
from scipy.optimize import isotonic_regression, minimize
from scipy.special import expit, logsumexp


def sigmoid_calibration(F, y, w=None):
    F = np.asarray(F, dtype=float)
    y = np.asarray(y)
    scale = 1.0
    m = np.max(np.abs(F))
    if m >= 30:
        scale = m
        F = F / scale
    neg = y <= 0
    if w is not None:
        w = np.asarray(w, dtype=float)
        prior0 = w[neg].sum()
        prior1 = w[~neg].sum()
    else:
        prior0 = float(np.sum(neg))
        prior1 = y.shape[0] - prior0
    T = np.zeros_like(F)
    T[y > 0] = (prior1 + 1.0) / (prior1 + 2.0)
    T[y <= 0] = 1.0 / (prior0 + 2.0)
    sw = np.ones_like(F) if w is None else w

    def loss_grad(AB):
        raw = -(AB[0] * F + AB[1])  # HalfBinomialLoss raw prediction
        # loss = log(1 + exp(raw)) - T * raw
        loss = np.logaddexp(0, raw) - T * raw
        g = expit(raw) - T
        return (sw * loss).sum(), np.array([-(sw * g) @ F, -(sw * g).sum()])

    AB0 = np.array([0.0, math.log((prior0 + 1.0) / (prior1 + 1.0))])
    res = minimize(loss_grad, AB0, method="L-BFGS-B", jac=True,
                   options={"gtol": 1e-12, "ftol": 64 * np.finfo(float).eps, "maxiter": 10000})
    return float(res.x[0] / scale), float(res.x[1])


def isotonic_fit(X, y, w=None):
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    w = np.ones_like(X) if w is None else np.asarray(w, dtype=float)
    keep = w > 0
    X, y, w = X[keep], y[keep], w[keep]
    order = np.lexsort((y, X))
    X, y, w = X[order], y[order], w[order]
    ux, inv = np.unique(X, return_inverse=True)
    uw = np.bincount(inv, weights=w)
    uy = np.bincount(inv, weights=w * y) / uw
    fitted = isotonic_regression(uy, weights=uw, increasing=True).x
    return ux, fitted


def isotonic_predict(ux, fitted, T):
    T = np.clip(np.asarray(T, dtype=float), ux[0], ux[-1])
    if len(ux) == 1:
        return np.full_like(T, fitted[0])
    return np.interp(T, ux, fitted)


def brier(p, y, w=None):
    p, y = np.asarray(p, float), np.asarray(y, float)
    w = np.ones_like(p) if w is None else np.asarray(w, float)
    return float(np.average((p - y) ** 2, weights=w))


def log_loss(p, y, w=None):
    eps = np.finfo(float).eps
    p, y = np.clip(np.asarray(p, float), eps, 1 - eps), np.asarray(y, float)
    w = np.ones_like(p) if w is None else np.asarray(w, float)
    return float(np.average(-(y * np.log(p) + (1 - y) * np.log(1 - p)), weights=w))


def ece(p, y, w=None, bins=10):
    p, y = np.asarray(p, float), np.asarray(y, float)
    w = np.ones_like(p) if w is None else np.asarray(w, float)
    order = np.argsort(p, kind="stable")
    ps, ys, ws = p[order], y[order], w[order]
    W = ws.sum()
    before = np.concatenate([[0.0], np.cumsum(ws)[:-1]])
    b = np.minimum(bins - 1, np.floor(bins * (before + ws / 2) / W)).astype(int)
    total = 0.0
    for k in range(bins):
        m = b == k
        if ws[m].sum() > 0:
            total += ws[m].sum() / W * abs(np.average(ps[m], weights=ws[m]) - np.average(ys[m], weights=ws[m]))
    return float(total)


def softmax_fit(X, y, K, lam, w=None):
    X = np.asarray(X, float)
    n, d = X.shape
    w = np.ones(n) if w is None else np.asarray(w, float)
    Y = np.zeros((n, K))
    Y[np.arange(n), y] = 1

    def f(theta):
        Wm = theta[: K * d].reshape(K, d)
        b = theta[K * d:]
        Z = X @ Wm.T + b
        lse = logsumexp(Z, axis=1)
        loss = (w * (lse - (Z * Y).sum(1))).sum() + 0.5 * lam * (Wm ** 2).sum()
        P = np.exp(Z - lse[:, None])
        G = (P - Y) * w[:, None]
        gW = G.T @ X + lam * Wm
        gb = G.sum(0)
        return loss, np.concatenate([gW.ravel(), gb])

    res = minimize(f, np.zeros(K * d + K), jac=True, method="BFGS", options={"gtol": 1e-10, "maxiter": 100000})
    Wm = res.x[: K * d].reshape(K, d)
    b = res.x[K * d:]
    b = b - b.mean()
    return Wm.tolist(), b.tolist(), float(res.fun), float(np.abs(res.jac).max())


def main():
    rng = np.random.default_rng(20261130)
    out = {"generator": "test/calibration/reference/make_reference.py",
           "numpy": np.__version__, "scipy": scipy.__version__, "sklearn_algorithm_version": "1.5"}

    # Platt cases.
    n = 40
    f1 = np.round(rng.normal(0, 1.5, n), 4)
    y1 = (rng.random(n) < expit(1.3 * f1 - 0.4)).astype(int)
    w2 = np.round(rng.uniform(0.2, 3.0, n), 3)
    f3 = np.round(rng.uniform(0, 1, 30), 4)  # probabilities as input (predict_proba path)
    y3 = (rng.random(30) < f3 ** 0.7).astype(int)
    f4 = np.round(f1 * 30, 3)  # large scores: sklearn rescales by max |F|
    platt = []
    for name, F, y, w in [("scores", f1, y1, None), ("scores-weighted", f1, y1, w2),
                          ("probabilities", f3, y3, None), ("large-scores", f4, y1, None),
                          ("tiny", np.array([-2.0, -1, 0, 1, 2]), np.array([0, 0, 1, 1, 1]), None)]:
        a, b = sigmoid_calibration(F, y, w)
        q = np.array([-3.0, -0.5, 0.0, 0.25, 0.8, 2.0])
        platt.append({"name": name, "scores": F.tolist(), "labels": y.tolist(),
                      "weights": None if w is None else w.tolist(), "a": a, "b": b,
                      "queries": q.tolist(), "predictions": expit(-(a * q + b)).tolist()})
    out["platt"] = platt

    # Isotonic cases: ties, weights, zero weights, out-of-range queries.
    xs = np.round(rng.uniform(0, 1, 50), 2)  # rounding makes ties
    ys = (rng.random(50) < xs).astype(int)
    ws = np.round(rng.uniform(0, 2, 50), 2)
    ws[[3, 17]] = 0.0
    queries = np.array([-0.5, 0.0, 0.013, 0.2, 0.37, 0.5, 0.61, 0.999, 1.0, 2.0])
    iso = []
    for name, w in [("unweighted", None), ("weighted", ws)]:
        ux, fit = isotonic_fit(xs, ys, w)
        iso.append({"name": name, "scores": xs.tolist(), "labels": ys.tolist(),
                    "weights": None if w is None else w.tolist(), "queries": queries.tolist(),
                    "predictions": isotonic_predict(ux, fit, queries).tolist(),
                    "fitted_at_scores": isotonic_predict(ux, fit, xs).tolist()})
    out["isotonic"] = iso

    # Scores.
    p = np.round(rng.uniform(0, 1, 37), 4)
    p[0], p[1] = 0.0, 1.0
    y = (rng.random(37) < p).astype(int)
    y[0], y[1] = 0, 1
    wv = np.round(rng.uniform(0.1, 4, 37), 3)
    out["scores"] = {"p": p.tolist(), "y": y.tolist(), "w": wv.tolist(),
                     "brier": brier(p, y), "brier_weighted": brier(p, y, wv),
                     "log_loss": log_loss(p, y), "log_loss_weighted": log_loss(p, y, wv),
                     "ece10": ece(p, y), "ece10_weighted": ece(p, y, wv), "ece5": ece(p, y, bins=5)}

    # Softmax regression.
    n, d, K = 60, 3, 4
    X = np.round(rng.normal(0, 1, (n, d)), 3)
    Wtrue = rng.normal(0, 1.5, (K, d))
    logits = X @ Wtrue.T
    ycls = np.array([rng.choice(K, p=np.exp(z - logsumexp(z))) for z in logits])
    wsm = np.round(rng.uniform(0.5, 2, n), 2)
    sm = []
    for name, lam, w in [("lambda1", 1.0, None), ("lambda0.1-weighted", 0.1, wsm)]:
        Wm, b, fun, gmax = softmax_fit(X, ycls, K, lam, w)
        sm.append({"name": name, "lambda": lam, "X": X.tolist(), "y": ycls.tolist(), "K": K,
                   "weights": None if w is None else w.tolist(), "W": Wm, "b": b, "objective": fun,
                   "max_abs_gradient": gmax})
    out["softmax"] = sm
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
