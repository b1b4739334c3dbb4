/**
 * Parallel Sorting by Regular Sampling over the dataspace (Kanna et al. §IV-B), run with 1 to 5 replicas per process.
 */
package io.github.volpex.examples.psrs;
