package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.testsupport.Scale;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The writer election with every replica of the process in a JVM of its own, on a 3-server ensemble, faults
 * injected from outside (see {@link ElectionRun} for what each run checks): a fixed schedule — the writer killed with
 * SIGKILL, paused with SIGSTOP past its session timeout and resumed, its session expired, the ensemble's leader failed
 * over, and finally every member but the one whose session expired killed, which must then be elected again — and a
 * property over random schedules of the same faults: one schedule of three to five faults in every build, 40 of four
 * to eight under {@code -Pscale} (the README names the command). Takeover times go to
 * {@code target/election-takeovers.txt}.
 */
class SeparateJvmElectionTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final Path TAKEOVERS = Path.of("target", "election-takeovers.txt");
    private static EmbeddedZooKeeper ensemble;

    @BeforeContainer
    static void start() {
        ensemble = EmbeddedZooKeeper.start(3);
    }

    @AfterContainer
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    private static Path freshDirectory() throws IOException {
        return Files.createTempDirectory("volpex-election-");
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Example
    void kill_pause_expiry_and_failover_each_hand_the_role_on_and_nothing_committed_is_lost() throws Exception {
        Path shared = freshDirectory();
        try (ElectionRun run = new ElectionRun(ensemble, "/elections/jvm" + RUNS.incrementAndGet(), shared)) {
            run.startUntil(3);
            run.awaitWriter();
            run.inject(ElectionRun.Fault.KILL);
            run.inject(ElectionRun.Fault.PAUSE);
            ElectionRun.Member expired = run.awaitWriter();
            run.inject(ElectionRun.Fault.EXPIRE);
            run.inject(ElectionRun.Fault.FAILOVER);
            // The member whose session expired competes again on its new session: alone, it is elected.
            run.killAllBut(expired);
            run.check();
            report("fixed schedule", run.takeovers());
        } finally {
            delete(shared);
        }
    }

    @Property(tries = 1, edgeCases = EdgeCasesMode.NONE)
    void random_schedules_of_kills_pauses_expiries_and_failovers_keep_one_writer_and_every_checkpoint(
            @ForAll("schedules") List<List<ElectionRun.Fault>> schedules) throws Exception {
        for (List<ElectionRun.Fault> schedule : schedules) {
            Path shared = freshDirectory();
            try (ElectionRun run = new ElectionRun(ensemble, "/elections/jvm" + RUNS.incrementAndGet(), shared)) {
                run.startUntil(3);
                run.awaitWriter();
                for (ElectionRun.Fault fault : schedule) {
                    run.inject(fault);
                    run.startUntil(3);
                }
                run.check();
                report("schedule " + schedule, run.takeovers());
            } finally {
                delete(shared);
            }
        }
    }

    @Provide
    Arbitrary<List<List<ElectionRun.Fault>>> schedules() {
        int schedules = Scale.of(1, 40);
        return Arbitraries.of(ElectionRun.Fault.class).list().ofMinSize(Scale.of(3, 4)).ofMaxSize(Scale.of(5, 8))
                .list().ofSize(schedules);
    }

    private static void report(String what, Map<ElectionRun.Fault, List<Long>> takeovers) throws IOException {
        List<String> lines = new ArrayList<>();
        takeovers.forEach((fault, millis) -> lines.add(fault + " " + millis));
        Files.createDirectories(TAKEOVERS.getParent());
        Files.write(TAKEOVERS, List.of(what + ": " + String.join("; ", lines)), StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
