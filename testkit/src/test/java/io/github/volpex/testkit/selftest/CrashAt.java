package io.github.volpex.testkit.selftest;

import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.RepositoryCall;
import java.util.List;

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

    /** A run of a workload whose process dies as {@code faults} says. */
    @FunctionalInterface
    interface Run {
        void run(CrashAt faults) throws Exception;
    }

    /**
     * Runs a workload once per crash point: for every call from 1 to {@code calls}, dying there both before the call
     * takes effect and after it ({@code bothWays}), or one of the two, alternating. A failure names the way and the
     * call.
     */
    static void eachCrashPoint(long calls, boolean bothWays, Run run) throws Exception {
        eachCrashPoint(calls, bothWays, 1, 1, run);
    }

    /** As {@link #eachCrashPoint(long, boolean, Run)}, at every {@code stride}-th call from call {@code first}. */
    static void eachCrashPoint(long calls, boolean bothWays, int stride, long first, Run run) throws Exception {
        for (long crashAt = first; crashAt <= calls; crashAt += stride) {
            List<Fault> ways = bothWays ? List.of(Fault.CRASH_BEFORE, Fault.CRASH_AFTER)
                    : List.of((crashAt - first) / stride % 2 == 1 ? Fault.CRASH_BEFORE : Fault.CRASH_AFTER);
            for (Fault how : ways) {
                try {
                    run.run(new CrashAt(crashAt, how));
                } catch (AssertionError | RuntimeException e) {
                    throw new AssertionError(how + " at call " + crashAt + " of " + calls + ": " + e, e);
                }
            }
        }
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
