package io.github.volpex.examples.cluster;

import io.github.volpex.examples.remd.RemdProcess;
import java.util.ArrayList;
import java.util.List;

/** One logical process of a run across processes, as its coordinator sees it; used on its event loop only. */
final class ClusterProcess {
    final int index;
    /** Its replica JVMs that run. */
    final List<ReplicaJvm> live = new ArrayList<>();
    /** The furthest step a replica reported. */
    int step;
    /** The virtual time of its last checkpoint, or -1. */
    double lastCheckpointVirtualSeconds = -1;
    /** Its outcome, once a replica finished. */
    RemdProcess.Outcome outcome;

    ClusterProcess(int index) {
        this.index = index;
    }

    /** The steps it has done, of {@code steps}: all of them once it finished. */
    int stepsDone(int steps) {
        return outcome != null ? steps : step;
    }
}
