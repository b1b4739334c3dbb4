#!/usr/bin/env python3
"""Generates the constants and starting polynomials of LambertW.java (needs mpmath).

    python3 checkpoint-core/tools/lambertw_fit.py > /tmp/lambertw-constants.txt

The starting polynomials only seed one Halley step whose residual is computed in double-double, so they need a
relative accuracy of about 1e-7, not full double precision. Every piece is a Chebyshev fit (mpmath.chebyfit) in the
branch-point variable p = sqrt(2(1 + e z)), shifted to the piece's centre so the monomial coefficients stay small.
"""
from mpmath import mp, mpf, e, log, lambertw, chebyfit, polyval, sqrt, exp

mp.dps = 40


def dd(x):
    hi = float(x)
    lo = float(x - mpf(hi))
    return hi, lo


def lit(v):
    return repr(float(v))


def print_rows(rows):
    """Prints table rows as Java array elements, each row starting on a new line, lines kept within 120 columns."""
    for k, row in enumerate(rows):
        items = [lit(v) + "," for v in row]
        if k == len(rows) - 1:
            items[-1] = items[-1][:-1]
        line = "           "
        for item in items:
            if len(line) + 1 + len(item) > 120:
                print(line)
                line = "           "
            line += " " + item
        print(line)


def w_of_p(p, branch):
    z = (p * p / 2 - 1) / e
    return lambertw(z, branch).real


def log_binade_table(name, branch, kmin, kmax, degree):
    """Large |W|: with L = ln|z| and s = |L| in the binade [2^k, 2^(k+1)), a fit of W/L in v = s·2^(1−k) − 3
    (v in [−1, 1)). One row of degree + 1 coefficients per binade k = kmin..kmax."""
    sign = 1 if branch == 0 else -1
    rows = []
    worst = 0
    for k in range(kmin, kmax + 1):
        lo, hi = mpf(2) ** k, mpf(2) ** (k + 1)

        def h(v):
            s_ = (v + 3) * mpf(2) ** (k - 1)
            L = sign * s_
            return lambertw(sign * exp(L), branch).real / L
        poly, _ = chebyfit(h, [-1, 1], degree + 1, error=True)
        rows.append(list(reversed(poly)))
        for i in range(1, 100):
            v = -1 + mpf(2) * i / 100
            worst = max(worst, abs(polyval(poly, v) / h(v) - 1))
    print(f"    // {name}: |ln|z|| in [2^{kmin}, 2^{kmax + 1}), one row per binade, fits W/ln|z|,"
          f" max relative error {float(worst):.1e}")
    print(f"    private static final double[] {name} = {{")
    print_rows(rows)
    print("    };")


def offset_table(name, branch, kmin, kmax, degree):
    """The middle range, indexed without a square root: with d = z + 1/e in [2^k, 2^(k+1)), split at 1.5·2^k into
    two pieces (the exponent and the leading mantissa bit of d), a fit of e^(−W) = W/z in u = d − centre, centre
    = 1.25·2^k or 1.75·2^k. One row of degree + 1 coefficients per piece, k = kmin..kmax."""
    rows = []
    worst = 0
    for k in range(kmin, kmax + 1):
        for top in (0, 1):
            a = mpf(2) ** k * (1 + mpf(top) / 2)
            b = a + mpf(2) ** (k - 1)
            c = (a + b) / 2
            poly, _ = chebyfit(lambda u: exp(-lambertw(u + c - 1 / e, branch).real), [a - c, b - c], degree + 1,
                               error=True)
            rows.append(list(reversed(poly)))
            for i in range(1, 60):
                d = a + (b - a) * i / 60
                w = lambertw(d - 1 / e, branch).real
                if abs(w) > mpf(10) ** -20:
                    worst = max(worst, abs(((d - 1 / e) * polyval(poly, d - c) - w) / w))
    print(f"    // {name}: d = z + 1/e in [2^{kmin}, 2^{kmax + 1}), two pieces per binade, fits e^-W,"
          f" max relative error of W {float(worst):.1e}")
    print(f"    private static final double[] {name} = {{")
    print_rows(rows)
    print("    };")


def piece(name, branch, a, b, degree, kind):
    """kind: 'ratio' fits (1 + W)/p, 'zero' fits W/(p^2 - 2), 'plain' fits W."""
    a, b = mpf(a), mpf(b)
    c = (a + b) / 2

    def f(u):
        p = u + c
        if kind == 'ratio':
            return (1 + w_of_p(p, branch)) / p if p != 0 else mpf(1 if branch == 0 else -1)
        if kind == 'zero':
            if abs(p * p - 2) < mpf(10) ** -30:
                return 1 / (2 * e)
            return w_of_p(p, branch) / (p * p - 2)
        return w_of_p(p, branch)

    poly, _ = chebyfit(f, [a - c, b - c], degree + 1, error=True)
    coefficients = list(reversed(poly))  # c0 + c1 u + ...
    worst = 0
    for i in range(1, 800):
        p = a + (b - a) * i / 800
        exact = 1 + w_of_p(p, branch) if kind == 'ratio' else w_of_p(p, branch)
        approx = polyval(poly, p - c)
        if kind == 'ratio':
            approx *= p
        elif kind == 'zero':
            approx *= p * p - 2
        if exact != 0:
            worst = max(worst, abs((approx - exact) / exact))
    print(f"    // {name}: p in [{float(a)}, {float(b)}], fits {kind}, max relative error {float(worst):.1e}")
    print(f"    private static final double {name}_CENTRE = {lit(c)};")
    for k, v in enumerate(coefficients):
        print(f"    private static final double {name}{k} = {lit(v)};")


print("    // Constants")
for name, value in [("INV_E", 1 / e), ("E", e), ("THIRD", mpf(1) / 3)]:
    hi, lo = dd(value)
    print(f"    private static final double {name}_HI = {lit(hi)};")
    print(f"    private static final double {name}_LO = {lit(lo)};")
ln2_64 = log(2) / 64
hi = float(ln2_64)
# keep 36 significant bits so that n * hi is exact for |n| < 2^17
import math
m, ex = math.frexp(hi)
hi = math.ldexp(math.floor(m * 2 ** 36) / 2 ** 36, ex)
lo = float(ln2_64 - mpf(hi))
print(f"    private static final double LN2_64_HI = {hi.hex()}; // {hi!r}")
print(f"    private static final double LN2_64_LO = {lit(lo)};")
print(f"    private static final double INV_LN2_64 = {lit(64 / log(2))};")
his, los = [], []
for j in range(64):
    h, l = dd(mpf(2) ** (mpf(j) / 64))
    his.append(lit(h))
    los.append(lit(l))
print("    private static final double[] EXP2_HI = {" + ", ".join(his) + "};")
print("    private static final double[] EXP2_LO = {" + ", ".join(los) + "};")

piece("P0A", 0, 0, 0.5, 6, 'ratio')
offset_table("MIDDLE0_TABLE", 0, -13, 1, 6)
offset_table("MIDDLEM1_TABLE", -1, -13, -3, 7)
log_binade_table("LARGE0_TABLE", 0, 0, 9, 9)
log_binade_table("LARGEM1_TABLE", -1, 1, 9, 9)
piece("PMA", -1, 0, 0.5, 7, 'ratio')
