package io.github.volpex.dataspace.spi;

/**
 * Sixty-four bytes of padding laid out before {@link AbstractReplica}'s fields (a superclass's fields come first), so
 * that the fields every call writes never share a cache line with the object before the replica in memory: replicas
 * of different processes run on different threads. A subclass pads after with {@code long} fields of its own.
 */
abstract class ReplicaPadding {
    long p00;
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
}
