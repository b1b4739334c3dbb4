package io.github.volpex.testkit.selftest;

import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.RepositoryCall;

/**
 * Counts the repository calls of a process and kills it at call {@code crashAt} (before that call takes effect or
 * after, as {@code how} says), and at every call after it: a process that died makes no more calls.
 */
final class CrashAt implements FaultSchedule {

    private final long crashAt;
    private final Fault how;
    private long calls;

    CrashAt(long crashAt, Fault how) {
        this.crashAt = crashAt;
        this.how = how;
    }

    /** A schedule that never kills, to count the calls of a workload. */
    static CrashAt never() {
        return new CrashAt(Long.MAX_VALUE, Fault.NONE);
    }

    @Override
    public synchronized Fault next(String repositoryId, RepositoryCall call, String key) {
        calls++;
        return calls < crashAt ? Fault.NONE : calls == crashAt ? how : Fault.CRASH_BEFORE;
    }

    /** The calls made so far. */
    synchronized long calls() {
        return calls;
    }

    /** Whether the process has died. */
    synchronized boolean died() {
        return calls >= crashAt;
    }
}
