#!/usr/bin/env python3
"""Maximum-likelihood references for FitConvergenceTest, computed at 50 digits with mpmath.

    python3 estimators/tools/fit_reference.py

Draws a fixed sample of durations in hours (some censored, some left-truncated: the first interval of a trace),
writes it as Java array literals, and prints the parameters that maximize the likelihood of each fit, found by
Newton's method on the gradient with derivatives taken numerically at 50 digits (mpmath.diff), independently of the
library's own formulas. The likelihood terms follow the library's documented model: a failure whose start was
observed contributes ln f(t), a censored one ln S(t); a left-truncated failure ln S(t) - ln m and a left-truncated
censored duration ln(integral_t^inf S(u) du / m), m the mean. Also prints d/da ln Q(a, x) at a few points.
"""
import random

from mpmath import mp, mpf, log, exp, gammainc, loggamma, erfc, sqrt, diff, matrix, lu_solve, quad, inf

mp.dps = 50


def sample():
    rng = random.Random(2031)
    rows = []
    for _ in range(48):
        hours = round(20.0 * (-__import__("math").log(1.0 - rng.random())) ** (1 / 0.7), 4)
        hours = max(hours, 0.01)
        truncated = rng.random() < 0.3
        failed = rng.random() < 0.75
        rows.append((hours, failed, truncated))
    # At least two left-truncated censored durations and two left-truncated failures.
    rows[0] = (rows[0][0], False, True)
    rows[1] = (rows[1][0], False, True)
    rows[2] = (rows[2][0], True, True)
    rows[3] = (rows[3][0], True, True)
    return rows


def normal_tail(z):
    return erfc(z / sqrt(2)) / 2


def weibull_terms(k, lam):
    mean = lam * mp.gamma(1 + 1 / k)

    def term(t, failed, truncated):
        x = (t / lam) ** k
        if not truncated:
            return log(k / lam) + (k - 1) * log(t / lam) - x if failed else -x
        if failed:
            return -x - log(mean)
        return log(gammainc(1 / k, x, inf, regularized=True))
    return term


def gamma_terms(a, theta):
    def term(t, failed, truncated):
        x = t / theta
        if not truncated:
            if failed:
                return (a - 1) * log(t) - x - a * log(theta) - loggamma(a)
            return log(gammainc(a, x, inf, regularized=True))
        if failed:
            return log(gammainc(a, x, inf, regularized=True)) - log(a * theta)
        return log(gammainc(a + 1, x, inf, regularized=True) - x / a * gammainc(a, x, inf, regularized=True))
    return term


def lognormal_terms(mu, sigma):
    mean = exp(mu + sigma * sigma / 2)

    def term(t, failed, truncated):
        z = (log(t) - mu) / sigma
        if not truncated:
            if failed:
                return -z * z / 2 - log(sigma * t * sqrt(2 * mp.pi))
            return log(normal_tail(z))
        if failed:
            return log(normal_tail(z)) - log(mean)
        return log(normal_tail(z - sigma) - t / mean * normal_tail(z))
    return term


def log_likelihood(terms, rows, p):
    term = terms(*p)
    return mp.fsum(term(mpf(t), f, tr) for t, f, tr in rows)


def maximize(terms, rows, start, to_model):
    """Damped Newton on (p0, p1), the fits' own transformed parameters, with numerical derivatives."""
    p = [mpf(v) for v in start]

    def f(u, v):
        return log_likelihood(terms, rows, to_model(u, v))
    value = f(*p)
    for _ in range(100):
        g = matrix([diff(f, p, (1, 0)), diff(f, p, (0, 1))])
        h = matrix([[diff(f, p, (2, 0)), diff(f, p, (1, 1))], [diff(f, p, (1, 1)), diff(f, p, (0, 2))]])
        step = -lu_solve(h, g)
        if h[0, 0] >= 0 or h[0, 0] * h[1, 1] - h[0, 1] ** 2 <= 0:
            step = g / (1 + sqrt(g[0] ** 2 + g[1] ** 2))
        scale = mpf(1)
        while True:
            q = [p[0] + scale * step[0], p[1] + scale * step[1]]
            candidate = f(*q)
            if candidate >= value or scale < mpf(10) ** -30:
                break
            scale /= 2
        p, value = q, candidate
        if abs(scale * step[0]) + abs(scale * step[1]) < mpf(10) ** -35:
            break
    return p


def main():
    rows = sample()
    print("    // Hours; failed; left-truncated (estimators/tools/fit_reference.py).")
    print("    private static final double[] HOURS = {" + ", ".join(repr(t) for t, _, _ in rows) + "};")
    print("    private static final boolean[] FAILED = {" + ", ".join("true" if f else "false" for _, f, _ in rows)
          + "};")
    print("    private static final boolean[] TRUNCATED = {"
          + ", ".join("true" if tr else "false" for _, _, tr in rows) + "};")
    censored_only = [(t, f, False) for t, f, _ in rows]
    cases = [
        ("truncated Weibull (shape, scale hours)", weibull_terms, rows, (0.0, 3.0),
         lambda u, v: (exp(u), exp(v)), lambda p: (exp(p[0]), exp(p[1]))),
        ("truncated gamma (shape, scale hours)", gamma_terms, rows, (0.0, 3.0),
         lambda u, v: (exp(u), exp(v)), lambda p: (exp(p[0]), exp(p[1]))),
        ("truncated log-normal (meanLog hours, sdLog)", lognormal_terms, rows, (2.0, 0.0),
         lambda u, v: (u, exp(v)), lambda p: (p[0], exp(p[1]))),
        ("censored gamma (shape, scale hours)", gamma_terms, censored_only, (0.0, 3.0),
         lambda u, v: (exp(u), exp(v)), lambda p: (exp(p[0]), exp(p[1]))),
    ]
    for name, terms, data, start, to_model, out in cases:
        p = maximize(terms, data, start, to_model)
        a, b = out(p)
        print(f"    // {name}: log-likelihood (hours) {mp.nstr(log_likelihood(terms, data, (a, b)), 25)}")
        print(f"    {mp.nstr(a, 25)}, {mp.nstr(b, 25)}")
    print("    // d/da ln Q(a, x)")
    for a, x in [(0.3, 0.1), (0.3, 2.0), (1.7, 0.5), (1.7, 9.0), (4.5, 3.0), (12.5, 11.0), (25.0, 60.0), (0.05, 1e-3)]:
        d = diff(lambda s: log(gammainc(s, mpf(x), inf, regularized=True)), mpf(a))
        print(f"    {{{a}, {x}, {mp.nstr(d, 25)}}},")


if __name__ == "__main__":
    main()
