/**
 * Replica-exchange Monte Carlo over the dataspace (Kanna et al. §IV-C, Fig. 9): a Lennard-Jones polymer chain per
 * logical process, temperatures swapped between ladder neighbours by the Metropolis criterion, and the exact,
 * checkpointable state of a process. All randomness derives from (seed, process, step), so replicas and restarted
 * processes compute bit-identical trajectories.
 */
package io.github.volpex.examples.remd;
