package io.github.volpex.examples.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.TraceInterval;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class TraceReplayTest {

    @Test
    void the_microsoft99_replay_follows_the_trace_hour_by_hour() throws Exception {
        Path file = Path.of("../../shared/data").resolve(Setup.MICROSOFT99);
        Assumptions.assumeTrue(Files.exists(file), "the microsoft99 trace is not redistributable and is absent here: "
                + file.toAbsolutePath().normalize());
        Map<Long, List<TraceInterval>> trace = Availability.readMatrix(file);
        assertEquals(1000, trace.size());
        long[] nodes = {0, 1, 2};
        Availability replay = Availability.replay(trace, nodes);
        assertEquals(840 * 3600.0, replay.horizonSeconds());
        for (int h = 0; h < nodes.length; h++) {
            for (TraceInterval interval : trace.get(nodes[h])) {
                double middle = (interval.startSeconds() + interval.endSeconds()) / 2;
                assertEquals(interval.available(), replay.isUp(h, middle), "node " + nodes[h] + " at " + middle);
                if (interval.available()) {
                    assertEquals(interval.startSeconds(), replay.upSince(h, middle));
                    assertEquals(interval.endSeconds(), replay.upUntil(h, middle));
                }
            }
            assertTrue(!replay.isUp(h, replay.horizonSeconds() + 1), "every host is down after the trace");
        }
    }

    @Test
    void weibull_availability_alternates_and_reaches_the_expected_up_fraction() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        Availability a = Availability.weibull(200, RenExperiment.UP_SHAPE, RenExperiment.UP_SCALE,
                RenExperiment.DOWN_SHAPE, RenExperiment.DOWN_SCALE, 0, 365 * 86_400.0, random);
        double up = 0;
        for (int h = 0; h < a.hosts(); h++) {
            up += a.upFraction(h, 0, 365 * 86_400.0) / a.hosts();
        }
        // mean up 35.30 h · Γ(1 + 1/0.55) = 60.0 h, mean down 9.34 h · Γ(1 + 1/0.60) = 14.0 h: about 81% up
        assertEquals(0.81, up, 0.03);
        double t = 1000 * 3600.0;
        for (int h = 0; h < a.hosts(); h++) {
            if (a.isUp(h, t)) {
                assertTrue(a.upSince(h, t) <= t && a.upUntil(h, t) > t);
            } else {
                assertTrue(a.nextUp(h, t) > t);
            }
        }
    }
}
