package io.github.volpex.examples.cluster;

/** One replica JVM of a run across processes and what it reported; used on its coordinator's event loop only. */
final class ReplicaJvm {
    final ClusterProcess process;
    final int number;
    final double startVirtualSeconds;
    final double failsAtSeconds;
    /** The first replica of a restart: its restore counts the restart's kind. */
    final boolean firstOfRestart;
    ChildJvm jvm;
    /** Whether it said last that it is its process's writer, and under which epoch. */
    boolean writer;
    long epoch = -1;
    /** When a pause the coordinator began ends ({@link System#nanoTime()}), or 0. */
    long pausedUntil;
    double virtualSeconds;
    boolean done;
    boolean exited;
    long servedFromLog;
    long duplicatePuts;
    long bytesWritten;

    ReplicaJvm(ClusterProcess process, int number, double startVirtualSeconds, double lifetimeSeconds,
               boolean firstOfRestart) {
        this.process = process;
        this.number = number;
        this.startVirtualSeconds = startVirtualSeconds;
        this.failsAtSeconds = startVirtualSeconds + lifetimeSeconds;
        this.virtualSeconds = startVirtualSeconds;
        this.firstOfRestart = firstOfRestart;
    }

    boolean running() {
        return jvm != null && !exited && !jvm.killed();
    }
}
