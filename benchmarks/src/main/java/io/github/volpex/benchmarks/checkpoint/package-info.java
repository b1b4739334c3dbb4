/**
 * Lambert W beside its previous version, mXparser's and {@code Math.exp}, its accuracy report on the committed
 * reference grid, and the interval calculators against Young's formula and a full Rahman–Subhlok scan (results in
 * {@code benchmarks/README.md}).
 */
package io.github.volpex.benchmarks.checkpoint;
