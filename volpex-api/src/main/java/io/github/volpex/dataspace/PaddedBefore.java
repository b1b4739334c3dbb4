package io.github.volpex.dataspace;

/**
 * Sixty-four bytes of padding laid out before a subclass's fields (a superclass's fields come first), so that the hot
 * fields of two processes' state never share a cache line: replicas of different processes run on different threads.
 */
abstract class PaddedBefore {
    long p00;
    long p01;
    long p02;
    long p03;
    long p04;
    long p05;
    long p06;
    long p07;
}
