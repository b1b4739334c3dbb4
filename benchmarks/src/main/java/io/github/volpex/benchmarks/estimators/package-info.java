/**
 * Benchmarks of the estimators: updating and reading a windowed failure-rate estimator, and reading plus fitting the
 * LANL05 trace.
 */
package io.github.volpex.benchmarks.estimators;
