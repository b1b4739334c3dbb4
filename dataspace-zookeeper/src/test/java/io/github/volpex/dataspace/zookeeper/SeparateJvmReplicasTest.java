package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testkit.ReplicatedPrograms;
import io.github.volpex.testkit.ReplicatedPrograms.ReplicaHistory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Replicas in separate JVMs ({@link ReplicaMain}), two per process, on one namespace: some are killed with
 * {@code destroyForcibly} in the middle of their run — wherever they are, a transaction in flight included — and
 * restarted in a new JVM from a checkpoint (a prefix of what they observed); any replica may be killed, so a process
 * may lose every replica it started with. The programs pass values around a ring of
 * processes, then run random steps. Every replica observes the single-replica run in the dataspace's serial order,
 * and the namespace stays consistent. Child JVMs bind nothing, read their standard input to learn when to stop, stop
 * by themselves after two minutes, and are destroyed in any case when the test ends (their logs go to
 * {@code target/replica-jvms}). A case replays from its jqwik seed.
 */
class SeparateJvmReplicasTest {

    private static final int PROCESSES = 3;
    private static final int ROUNDS = 8;
    private static final int KILLS = 3;
    private static TestEnsemble ensemble;

    private final Path logs = Path.of("target", "replica-jvms");
    private final List<Child> children = Collections.synchronizedList(new ArrayList<>());

    @BeforeContainer
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/jvms");
    }

    @AfterContainer
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    @Provide
    Arbitrary<List<List<ProgramStep>>> tails() {
        return ReplicatedPrograms.programs(PROCESSES, PROCESSES, 8);
    }

    @Property(tries = 1, shrinking = ShrinkingMode.OFF)
    void replicas_in_jvms_that_are_killed_and_restarted_observe_the_single_replica_run(
            @ForAll("tails") List<List<ProgramStep>> tails, @ForAll long seed) throws Exception {
        Files.createDirectories(logs);
        try {
            run(tails, seed);
        } finally {
            for (Child child : children) {
                child.destroy();
            }
        }
    }

    private void run(List<List<ProgramStep>> tails, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        List<List<ProgramStep>> programs = new ArrayList<>();
        for (int process = 0; process < PROCESSES; process++) {
            List<ProgramStep> program = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                program.add(new ProgramStep(Operation.PUT, "ring/" + process + "." + round));
                program.add(new ProgramStep(Operation.GET, "ring/" + ((process + PROCESSES - 1) % PROCESSES) + "."
                        + round));
            }
            program.addAll(tails.get(process));
            programs.add(program);
        }
        String namespace = "/jvms/" + Long.toHexString(seed);
        try (ZkDataspace observer = (ZkDataspace) ZooKeeperDataspace.connect(ensemble.connectString(), namespace,
                PROCESSES)) {
            for (int process = 0; process < PROCESSES; process++) {
                children.add(launch(namespace, process, programs.get(process), 0, List.of()));
                children.add(launch(namespace, process, programs.get(process), 0, List.of()));
            }
            int total = 0;
            for (List<ProgramStep> program : programs) {
                total += 2 * program.size();
            }
            for (int kill = 0; kill < KILLS; kill++) {
                int target = (kill + 1) * total / (2 * KILLS + 2) + random.nextInt(5);
                awaitProgress(target);
                List<Child> alive = new ArrayList<>();
                for (Child child : children) {
                    if (child.alive()) {
                        alive.add(child);
                    }
                }
                Child victim = alive.get(random.nextInt(alive.size()));
                victim.destroy();
                List<String> seen = victim.observations();
                int saved = random.nextInt(seen.size() + 1);
                children.add(launch(namespace, victim.processId, programs.get(victim.processId), saved,
                        seen.subList(0, saved)));
            }
            awaitQuiescence(observer, programs);
            for (Child child : children) {
                child.stop();
            }
            List<ReplicaHistory> histories = new ArrayList<>();
            for (Child child : children) {
                assertTrue(child.failure() == null, child + " failed: " + child.failure());
                histories.add(new ReplicaHistory(child.toString(), child.processId, child.observations(),
                        !child.killed));
            }
            ReplicatedPrograms.assertConsistentWithSingleReplicaRun(programs,
                    ConcurrentRun.freshOrder(observer, PROCESSES), histories);
            observer.collectGarbage(); // blobs of puts killed before their commit
            ensemble.inspector().check(namespace);
        }
    }

    private Child launch(String namespace, int processId, List<ProgramStep> program, int saved, List<String> prefix)
            throws IOException {
        Path log = logs.resolve("replica-" + Long.toHexString(System.nanoTime()) + "-" + children.size() + ".log");
        Process process = ChildJvms.start(log, ReplicaMain.class, ensemble.connectString(), namespace,
                Integer.toString(PROCESSES), Integer.toString(processId), Integer.toString(saved),
                ReplicaMain.encode(program));
        Child child = new Child(process, processId, prefix, children.size(), log);
        child.reader.start();
        return child;
    }

    private void awaitProgress(int calls) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            int progress = 0;
            for (Child child : children) {
                if (child.failure() != null) {
                    fail(child + " failed: " + child.failure());
                }
                progress += child.alive() ? child.observations().size() : 0;
            }
            if (progress >= calls) {
                return;
            }
            assertTrue(System.nanoTime() - deadline < 0, "the JVMs reached " + progress + " of " + calls + " calls");
            Thread.sleep(10);
        }
    }

    /** Waits until nothing can change: see {@link ConcurrentRun}; here every child must also be connected. */
    private void awaitQuiescence(ZkDataspace observer, List<List<ProgramStep>> programs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        String previous = null;
        while (true) {
            String state = quiescentState(observer, programs);
            if (state != null && state.equals(previous)) {
                return;
            }
            previous = state;
            assertTrue(System.nanoTime() - deadline < 0, "the JVMs did not settle: " + children);
            Thread.sleep(30);
        }
    }

    private String quiescentState(ZkDataspace observer, List<List<ProgramStep>> programs) {
        StringBuilder state = new StringBuilder();
        long[] issued = new long[PROCESSES];
        boolean[] pending = new boolean[PROCESSES];
        for (int process = 0; process < PROCESSES; process++) {
            issued[process] = observer.highWaterMark(process);
            pending[process] = observer.pendingRequest(process).isPresent();
            if (!pending[process] && issued[process] < programs.get(process).size()) {
                return null;
            }
            state.append(issued[process]).append(pending[process] ? "p " : " ");
        }
        for (Child child : children) {
            if (child.killed) {
                continue;
            }
            if (child.failure() != null) {
                fail(child + " failed: " + child.failure());
            }
            int observed = child.observations().size();
            boolean atEnd = observed == programs.get(child.processId).size();
            boolean waiting = pending[child.processId] && observed == issued[child.processId] - 1;
            if (!child.ready || !(atEnd || waiting)) {
                return null;
            }
            state.append(observed).append(' ');
        }
        return state.toString();
    }

    /** A replica JVM and what it printed. */
    private static final class Child {
        final Process process;
        final int processId;
        final int number;
        final Path log;
        final List<String> observations;
        final Thread reader;
        volatile boolean ready;
        volatile boolean killed;
        private volatile String failure;

        Child(Process process, int processId, List<String> prefix, int number, Path log) {
            this.process = process;
            this.processId = processId;
            this.number = number;
            this.log = log;
            this.observations = Collections.synchronizedList(new ArrayList<>(prefix));
            this.reader = new Thread(this::read, "jvm-" + number);
            this.reader.setDaemon(true);
        }

        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.equals("READY")) {
                        ready = true;
                    } else if (line.startsWith("OBS ")) {
                        observations.add(line.substring(4));
                    } else if (line.startsWith("FAIL ") && !killed) {
                        failure = line.substring(5);
                    }
                }
            } catch (IOException ended) {
                // Destroyed.
            }
        }

        boolean alive() {
            return !killed && process.isAlive();
        }

        List<String> observations() {
            synchronized (observations) {
                return List.copyOf(observations);
            }
        }

        String failure() {
            if (failure == null && !killed && !process.isAlive() && process.exitValue() != 0) {
                return "exited with " + process.exitValue() + ": " + tail();
            }
            return failure;
        }

        private String tail() {
            return ChildJvms.tail(log);
        }

        /** Kills the JVM at once, wherever it is. */
        void destroy() throws InterruptedException {
            if (process.isAlive()) {
                killed = true;
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
            reader.join(10_000);
        }

        /** Asks the JVM to stop and waits for it (30 s at most), then reads the rest of its output. */
        void stop() throws Exception {
            if (killed || !process.isAlive()) {
                return;
            }
            try (OutputStream in = process.getOutputStream()) {
                in.write("STOP\n".getBytes(StandardCharsets.UTF_8));
            } catch (IOException exited) {
                // It stopped already.
            }
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), this + " stopped");
            reader.join(10_000);
            assertEquals(0, process.exitValue(), this + " exited cleanly: " + tail());
        }

        @Override
        public String toString() {
            return "JVM " + number + " (process " + processId + (killed ? ", killed" : "") + ") observed "
                    + observations;
        }
    }
}
