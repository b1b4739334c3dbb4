package io.github.volpex.dataspace.zookeeper;

/**
 * Thrown while planning when what was read has changed (a record moved on, a node went): the request loop reads again.
 * One shared instance, without a stack trace.
 */
final class Retry extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final Retry INSTANCE = new Retry();

    private Retry() {
        super("state changed", null, false, false);
    }
}
