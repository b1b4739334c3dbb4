#!/usr/bin/env python3
"""Generates LambertWTables.java, the constants and starting approximations of LambertW (needs mpmath).

    python3 checkpoint-core/tools/lambertw_fit.py \
        > checkpoint-core/src/main/java/io/github/volpex/checkpoint/math/LambertWTables.java

The starting approximations seed one Newton step whose result is certified by a rounding test, so they need a
relative accuracy of about 2^-36 (the step checks |correction| <= 2^-36 |w| and declines otherwise), not full double
precision. Every piece is a Chebyshev fit (mpmath.chebyfit), shifted to the piece's centre so that the monomial
coefficients stay small; the first three coefficients of each piece also give the estimate from which the
exponential's table index is taken, which must land within 2^-8 of the start (the step checks that too). The script
prints, as comments, the largest relative error of each start and the largest distance of each estimate from W,
both measured on 41 points per piece. The exponential and logarithm tables are correctly rounded double-double
values of e^(j/256), 2^(j/128), 2^(i/1024) and ln(1/c).
"""
import math

from mpmath import mp, mpf, e, log, lambertw, chebyfit, polyval, exp

mp.dps = 40

MIDDLE_BITS = 3  # 2^3 pieces per binade of d = z + 1/e
LARGE_BITS = 3   # 2^3 pieces per binade of |ln|z||
SAMPLES = 41


def lit(v):
    return repr(float(v))


def dd(x):
    hi = float(x)
    return hi, float(x - mpf(hi))


def split(x, bits):
    """The leading `bits` significant bits of x, and the rest as a double."""
    m, ex = math.frexp(float(x))
    hi = math.ldexp(math.floor(m * 2 ** bits) / 2 ** bits, ex)
    return hi, x - mpf(hi)


def print_table(name, doc, rows, per_line=4):
    print(f"    /** {doc} */")
    print(f"    static final double[] {name} = {{")
    items = [lit(v) for row in rows for v in row]
    for i in range(0, len(items), per_line):
        chunk = items[i:i + per_line]
        end = "," if i + per_line < len(items) else ""
        print("            " + ", ".join(chunk) + end)
    print("    };")


def pieces(kmin, kmax, bits):
    n = 2 ** bits
    for k in range(kmin, kmax + 1):
        for i in range(n):
            a = mpf(2) ** k * (1 + mpf(i) / n)
            b = mpf(2) ** k * (1 + mpf(i + 1) / n)
            yield a, b, (a + b) / 2


def middle_table(name, branch, kmin, kmax, degree):
    """Middle range, indexed by the exponent and leading mantissa bits of d = z + 1/e: a fit of e^(-W) = W/z in
    u = d - centre, so that W = z q(u) keeps its relative accuracy where it vanishes."""
    rows, worst, worst_estimate = [], 0, 0
    for a, b, c in pieces(kmin, kmax, MIDDLE_BITS):
        poly = chebyfit(lambda u: exp(-lambertw(u + c - 1 / e, branch).real), [a - c, b - c], degree + 1)
        co = list(reversed(poly))
        rows.append(co)
        for t in range(SAMPLES):
            d = a + (b - a) * t / (SAMPLES - 1)
            u, z = d - c, d - 1 / e
            w = lambertw(z, branch).real
            q = polyval(poly, u)
            if abs(w) > mpf(10) ** -20:
                worst = max(worst, abs((z * q - w) / w))
            worst_estimate = max(worst_estimate, abs(z * (co[0] + u * (co[1] + u * co[2])) - w))
    print(f"    // {name}: max relative error of the start {float(worst):.1e}, of the estimate (absolute) "
          f"{float(worst_estimate):.1e}")
    print_table(name, f"d = z + 1/e in [2^{kmin}, 2^{kmax + 1}), {2 ** MIDDLE_BITS} pieces per binade: "
                f"{degree + 1} coefficients of e^-W in d - centre per piece.", rows)


def large_table(name, branch, kmin, kmax, degree):
    """Large |W|: with L = ln|z| and s = |L| in [2^k (1 + i/8), 2^k (1 + (i + 1)/8)), a fit of W/L in u = s - centre."""
    sign = 1 if branch == 0 else -1
    rows, worst, worst_estimate = [], 0, 0
    for a, b, c in pieces(kmin, kmax, LARGE_BITS):
        def h(u):
            big_l = sign * (u + c)
            return lambertw(sign * exp(big_l), branch).real / big_l
        poly = chebyfit(h, [a - c, b - c], degree + 1)
        co = list(reversed(poly))
        rows.append(co)
        for t in range(SAMPLES):
            s = a + (b - a) * t / (SAMPLES - 1)
            u, big_l = s - c, sign * s
            w = lambertw(sign * exp(big_l), branch).real
            worst = max(worst, abs((big_l * polyval(poly, u) - w) / w))
            worst_estimate = max(worst_estimate, abs(big_l * (co[0] + u * (co[1] + u * co[2])) - w))
    print(f"    // {name}: max relative error of the start {float(worst):.1e}, of the estimate (absolute) "
          f"{float(worst_estimate):.1e}")
    print_table(name, f"|ln|z|| in [2^{kmin}, 2^{kmax + 1}), {2 ** LARGE_BITS} pieces per binade: "
                f"{degree + 1} coefficients of W/ln|z| in |ln|z|| - centre per piece.", rows)


def branch_start(name, branch, degree):
    """Near the branch point: a fit of (1 + W)/p in p = sqrt(2(1 + e z)) on [0, 2^-5]."""
    sign = 1 if branch == 0 else -1
    top = mpf(2) ** -5

    def f(p):
        if p == 0:
            return mpf(sign)
        return (1 + lambertw((p * p / 2 - 1) / e, branch).real) / p
    poly = chebyfit(f, [0, top], degree + 1)
    worst = max(abs(polyval(poly, top * i / 400) / f(top * i / 400) - 1) for i in range(1, 401))
    print(f"    // {name}: max relative error {float(worst):.1e}")
    print_table(name, f"(1 + W)/p in p on [0, 2^-5], {degree + 1} coefficients.", [list(reversed(poly))])


def exp_tables():
    lo, hi = -862, 272
    print(f"    /** The first index of {{@link #EXP_256}}. */")
    print(f"    static final int EXP_256_FIRST = {lo};")
    print_table("EXP_256", f"e^(j/256) for j = {lo}..{hi} as (high, low) pairs.",
                [dd(exp(mpf(j) / 256)) for j in range(lo, hi + 1)])
    print_table("EXP2_128", "2^(j/128) for j = 0..127 as (high, low) pairs.",
                [dd(mpf(2) ** (mpf(j) / 128)) for j in range(128)])
    print_table("EXP2_1024", "2^(i/1024) for i = 0..7 as (high, low) pairs.",
                [dd(mpf(2) ** (mpf(i) / 1024)) for i in range(8)])
    # ln2/128 in two parts: 34 significant bits (k·high is exact for |k| < 2^19) and a double.
    c_hi, rest = split(log(2) / 128, 34)
    print(f"    /** The leading 34 bits of ln2/128: {{@code k·LN2_128_HI}} is exact for |k| < 2^19. */")
    print(f"    static final double LN2_128_HI = {c_hi.hex()};")
    print(f"    /** ln2/128 − {{@link #LN2_128_HI}}. */")
    print(f"    static final double LN2_128_LO = {lit(rest)};")
    print(f"    /** 128/ln2. */")
    print(f"    static final double INV_LN2_128 = {lit(128 / log(2))};")
    # ln2/1024 in three parts, the first two of 32 bits (k·part is exact for |k| < 2^21).
    a, rest = split(log(2) / 1024, 32)
    b, rest = split(rest, 32)
    print(f"    /** ln2/1024 = LN2_1024_A + LN2_1024_B + LN2_1024_C, the first two of 32 significant bits. */")
    print(f"    static final double LN2_1024_A = {a.hex()};")
    print(f"    /** See {{@link #LN2_1024_A}}. */")
    print(f"    static final double LN2_1024_B = {b.hex()};")
    print(f"    /** See {{@link #LN2_1024_A}}. */")
    print(f"    static final double LN2_1024_C = {lit(rest)};")
    print(f"    /** 1024/ln2. */")
    print(f"    static final double INV_LN2_1024 = {lit(1024 / log(2))};")


def log_table():
    rows = []
    for i in range(128):
        c = 1 + (mpf(i) + mpf(1) / 2) / 128
        inverse = float(1 / c)
        rows.append((inverse, -log(mpf(inverse))))
    print_table("LOG_128", "(r, −ln r) for r the double nearest 1/c, c = 1 + (i + 1/2)/128, i = 0..127.", rows)
    print(f"    /** ln 2. */")
    print(f"    static final double LN2 = {lit(log(2))};")


print("""package io.github.volpex.checkpoint.math;

/**
 * Constants and starting approximations of {@link LambertW}, generated by
 * {@code checkpoint-core/tools/lambertw_fit.py}; do not edit by hand.
 */
final class LambertWTables {

    private LambertWTables() {
    }
""")
branch_start("BRANCH0", 0, 5)
branch_start("BRANCHM1", -1, 5)
middle_table("MIDDLE0", 0, -13, 1, 6)
middle_table("MIDDLEM1", -1, -13, -3, 7)
large_table("LARGE0", 0, 0, 9, 7)
large_table("LARGEM1", -1, 1, 9, 7)
exp_tables()
log_table()
series = [dd(mpf(k + 1) / math.factorial(k + 2)) for k in range(6)]
print_table("SERIES_HI", "(k + 1)/(k + 2)! for k = 0..5, the high parts: G(x)/x^2 = Σ (k + 1)x^k/(k + 2)!.",
            [[h for h, _ in series]], per_line=6)
print_table("SERIES_LO", "The low parts of {@link #SERIES_HI}.", [[lo for _, lo in series]], per_line=6)
for name, value in [("INV_E", 1 / e), ("E", e), ("THIRD", mpf(1) / 3)]:
    hi, lo = dd(value)
    print(f"    /** {name.replace('_', ' ').lower()} as a double-double: the high part. */")
    print(f"    static final double {name}_HI = {lit(hi)};")
    print(f"    /** The low part of {{@link #{name}_HI}}. */")
    print(f"    static final double {name}_LO = {lit(lo)};")
print("}")
