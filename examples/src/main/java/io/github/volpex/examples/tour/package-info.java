/**
 * The tour: {@link io.github.volpex.examples.tour.Tour} runs replica exchange on simulated volatile hosts, composing
 * every module as grid middleware would (dataspace, estimators, adaptive Ni–Harwood scheduling, greedy repository
 * selection, the IDA checkpoint store with repair and recovery), and verifies the outcome bit for bit against a
 * failure-free run. Time is virtual; the computation is real.
 */
package io.github.volpex.examples.tour;
