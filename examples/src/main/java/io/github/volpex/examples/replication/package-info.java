/**
 * Running a parallel program with replicated processes over the Volpex dataspace.
 */
package io.github.volpex.examples.replication;
