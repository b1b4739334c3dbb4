package io.github.volpex.examples.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.checkpoint.repository.s3.S3Repository;
import io.github.volpex.dataspace.zookeeper.EmbeddedZooKeeper;
import io.github.volpex.examples.Main;
import io.github.volpex.testsupport.SearchDepth;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tour across processes, end to end: replicas in JVMs of their own killed with SIGKILL, restarted from their
 * checkpoints, the ZooKeeper leader failing over, storage hosts losing their data — verified bit for bit; then the
 * same with services the run is given, and a coordinator that is killed or interrupted mid-run leaving nothing running.
 * The randomised runs (one seed each in an ordinary build, more in a deeper search) replay with
 * {@code -Dvolpex.cluster.seed=<seed>}, which every failure message names.
 */
class ClusterTest {

    private static final Pattern ZOOKEEPER_PORT = Pattern.compile("127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern S3_PORTS = Pattern.compile("in this JVM on 127\\.0\\.0\\.1, ports ([\\d ]+)");
    private final List<Process> coordinators = Collections.synchronizedList(new ArrayList<>());

    /** The runs' logs and ZooKeeper data: a coordinator killed mid-run cannot delete its own. */
    @TempDir
    Path logs;

    @AfterEach
    void killCoordinators() throws InterruptedException {
        for (Process coordinator : coordinators) {
            List<ProcessHandle> descendants = coordinator.descendants().collect(Collectors.toList());
            coordinator.destroyForcibly();
            coordinator.waitFor(30, TimeUnit.SECONDS);
            descendants.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Small runs: lifetimes concentrated around half an hour (Weibull shape 5), so every first replica dies. On a
     * quiet 2-core machine a run takes up to about 3 minutes (its writers wait for each asynchronous persist, and the
     * restarts drawn vary); the bound of 10 minutes is for machines shared with other builds (runs with load average 25
     * to 50 on 2 cores advanced steadily but needed several times as long).
     */
    private List<String> smallRun(long seed) {
        return new ArrayList<>(List.of("cluster", "--processes", "3", "--steps", "10", "--sweeps", "200", "--beads",
                "12", "--shape", "5", "--scale-hours", "0.5", "--storage-scale-hours", "0.6", "--pauses", "1",
                "--seed", Long.toString(seed), "--timeout-minutes", "10", "--logs", logs.toString()));
    }

    @Test
    @Timeout(value = 720, unit = TimeUnit.SECONDS)
    void replicas_killed_in_and_out_a_leader_failover_and_lost_storage_still_give_the_failure_free_result()
            throws Exception {
        // One run in an ordinary build, a hundred in a deep search; a failure names its seed and the replay flag.
        SearchDepth.eachSeed("volpex.cluster.seed", 1, seed -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status;
            Saboteur saboteur = new Saboteur(seed);
            try {
                saboteur.start();
                status = Main.run(smallRun(seed).toArray(new String[0]), new PrintStream(out, true,
                        StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            } finally {
                saboteur.stop();
            }
            String text = out.toString(StandardCharsets.UTF_8);
            String context = "from outside the coordinator: " + saboteur.done() + ":\n" + text + "\n"
                    + err.toString(StandardCharsets.UTF_8);
            assertEquals(0, status, context);
            assertTrue(text.contains("verdict: PASS"), context);
            // The replicas killed from outside are host failures, counted as such; the one paused past its session
            // came back and the run went on.
            assertTrue(saboteur.killed() >= 2 && saboteur.paused() == 1, context);
            assertTrue(number(text, "lifetimes, (\\d+) died unscheduled") >= 1, context);
            assertTrue(number(text, "writers elected +(\\d+) ") >= 3, context);
            // Lifetimes of 0.5 h ± 10% against 50 min of work: all six first replicas die, each killed on its
            // lifetime unless the saboteur (three kills at most) killed it first; their replacements may outlive a
            // run that goes well.
            assertTrue(number(text, "replica JVMs +\\d+ started, (\\d+) killed with SIGKILL")
                    + number(text, "lifetimes, (\\d+) died unscheduled") >= 6, context);
            assertTrue(number(text, "replica JVMs +\\d+ started, (\\d+) killed with SIGKILL") >= 3, context);
            assertTrue(number(text, "processes restarted +(\\d+) ") >= 3, context);
            assertTrue(number(text, "processes restarted +\\d+ \\((\\d+) from a checkpoint") >= 1, context);
            assertEquals(1, number(text, "ZooKeeper failovers +(\\d+) \\(leader server"), context);
            assertTrue(number(text, "storage-host departures +(\\d+)") >= 1, context);
            assertTrue(number(text, "requests served from read log +(\\d+)") >= 1, context);
            assertTrue(number(text, "checkpoints committed +(\\d+)") >= 1, context);
            // The writers reported what their asynchronous commits cost: every durable one wrote at least its nine
            // index copies; full commits of the same checkpoints, derived, write at least as many.
            int durable = number(text, "checkpoints committed +(\\d+) of \\d+ taken, "
                    + Pattern.quote(ReplicaCommand.COMMITS) + " \\(");
            assertTrue(number(text, "checkpoints committed +\\d+ of (\\d+) taken") >= durable, context);
            long written = bytes(text, "bytes written by commits +([\\d,]+) measured; full commits: [\\d,]+, derived");
            long full = bytes(text, "bytes written by commits +[\\d,]+ measured; full commits: ([\\d,]+), derived");
            assertTrue(written >= durable * 9L * 400 && full >= durable * 9L * 400, context);
            assertTrue(text.matches("(?s).*\\R  job held by commit calls +\\d+\\.\\d{3} s measured; full synchronous "
                    + "commits: \\d+\\.\\d{3} s, derived from the durable persists' latencies\\R.*"), context);

            assertChurnKeptUp(text, context);
            assertNothingLeft(text, context);
        });
    }

    /**
     * Virtual time never ran more than a pacing window ahead of the storage departures it drew: a replica's clock is
     * acknowledged only once no departure due by it is still to come, after which the replica reports at most five
     * more parts of a step (the window of four and the one whose report waits; 37.5 s each) and passes at most one
     * step end, where a checkpoint adds its overhead (20 s): 207.5 s. A restart starts its JVMs only once the
     * departures due before its resume time have happened. (Without the pacing, clocks ran over 1,000 s ahead, and
     * every restart's new JVMs met departures due long before, until no checkpoint survived a restart and a job
     * stalled.)
     */
    private static void assertChurnKeptUp(String text, String context) {
        Matcher lag = Pattern.compile("storage churn paced +(\\d+) clock reports held until the departures due by "
                + "them had happened; clocks at most (\\d+\\.\\d) s \\(virtual\\) past a departure").matcher(text);
        assertTrue(lag.find(), context);
        assertTrue(Double.parseDouble(lag.group(2)) <= 207.5, "clocks ran ahead of the storage churn: " + context);
    }

    /**
     * Kills replica JVMs of this JVM's coordinator with SIGKILL from outside it (the system's kill command), as an
     * operator or the OOM killer would, and pauses one with SIGSTOP for longer than its election session before
     * resuming it: three kills and one pause, 1.5 to 3 s apart, on replicas drawn with the test's seed.
     */
    private static final class Saboteur {
        private final SplittableRandom random;
        private final Thread thread;
        private final List<String> done = Collections.synchronizedList(new ArrayList<>());
        private volatile boolean stopped;
        private volatile int killed;
        private volatile int paused;

        Saboteur(long seed) {
            this.random = new SplittableRandom(seed);
            this.thread = new Thread(this::run, "saboteur");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.interrupt();
            thread.join(30_000);
        }

        int killed() {
            return killed;
        }

        int paused() {
            return paused;
        }

        String done() {
            return String.valueOf(done);
        }

        /** The replica JVMs running now. */
        private static List<ChildJvm> replicas() {
            return ChildJvm.running().stream().filter(child -> child.name().startsWith("replica-")).toList();
        }

        private void run() {
            ChildJvm pausedVictim = null;
            long resumeAt = 0;
            try {
                while (replicas().size() < 3) {
                    Thread.sleep(100);
                }
                for (String action : List.of("KILL", "STOP", "KILL", "KILL")) {
                    Thread.sleep(1_500 + random.nextInt(1_500));
                    if (pausedVictim != null && System.nanoTime() - resumeAt >= 0) {
                        resume(pausedVictim);
                        pausedVictim = null;
                    }
                    List<ChildJvm> running = replicas();
                    if (stopped || running.isEmpty()) {
                        break;
                    }
                    ChildJvm victim = running.get(random.nextInt(running.size()));
                    if (action.equals("STOP")) {
                        if (signal(victim, "STOP")) {
                            pausedVictim = victim;
                            resumeAt = System.nanoTime() + (ReplicaCommand.ELECTION_SESSION.toNanos()
                                    + TimeUnit.MILLISECONDS.toNanos(2_500));
                            paused++;
                            done.add("paused " + victim);
                        }
                    } else if (signal(victim, "KILL")) {
                        killed++;
                        done.add("killed " + victim);
                    }
                }
                if (pausedVictim != null) {
                    Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(resumeAt - System.nanoTime())));
                }
            } catch (InterruptedException stop) {
                // The run ended.
            } finally {
                if (pausedVictim != null) {
                    resume(pausedVictim);
                }
            }
        }

        private void resume(ChildJvm victim) {
            try {
                signal(victim, "CONT");
                done.add("resumed " + victim);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Signals a child with the system's kill command, as anyone outside the coordinator could. */
        private static boolean signal(ChildJvm process, String signal) throws InterruptedException {
            boolean sent = process.signal(signal);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            return sent;
        }
    }

    @Test
    @Timeout(value = 720, unit = TimeUnit.SECONDS)
    void a_run_on_services_it_is_given_uses_them_and_leaves_nothing_in_them() {
        // One run in an ordinary build, more in a deep search, each on services of its own; a failure names its seed
        // and the replay flag.
        SearchDepth.eachSeed("volpex.cluster.seed", 1, seed -> {
            S3Credentials credentials = new S3Credentials("test-access", "test-secret");
            try (EmbeddedZooKeeper ensemble = EmbeddedZooKeeper.start(1);
                 S3Server first = S3Server.start("127.0.0.1", 0, "given-bucket", credentials);
                 S3Server second = S3Server.start("127.0.0.1", 0, "given-bucket", credentials)) {
                List<String> arguments = smallRun(seed);
                arguments.addAll(List.of("--processes", "2", "--zookeeper", ensemble.connectString(), "--s3",
                        first.endpoint() + "," + second.endpoint(), "--s3-bucket", "given-bucket"));
                arguments.remove(arguments.indexOf("--processes") + 1);
                arguments.remove(arguments.indexOf("--processes"));
                Process coordinator = launch(arguments, credentials);
                String text = readAll(coordinator, 600);
                String context = "seed " + seed + " (replay with -Dvolpex.cluster.seed=" + seed + "):\n" + text;
                assertEquals(0, coordinator.exitValue(), context);
                assertTrue(text.contains("verdict: PASS"), context);
                assertTrue(text.contains("ZooKeeper failovers               0 (an ensemble of yours"), context);
                assertTrue(number(text, "replica JVMs +\\d+ started, (\\d+) killed with SIGKILL") >= 4, context);
                assertTrue(number(text, "storage-host departures +(\\d+)") >= 1, context);
                assertChurnKeptUp(text, context);
                assertTrue(RunSpecTest.runs(ensemble.connectString()).isEmpty(), "the run's znodes are deleted");
                for (S3Server server : List.of(first, second)) {
                    try (S3Repository bucket = S3Repository.builder("given-bucket").endpoint(server.endpoint())
                            .pathStyle(true).credentials(credentials.accessKeyId(), credentials.secretAccessKey())
                            .build()) {
                        assertEquals(List.of(), bucket.list(""), "the run's objects are deleted from "
                                + server.endpoint());
                    }
                }
            }
        });
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void a_coordinator_killed_with_sigkill_leaves_no_child_running() throws Exception {
        assertChildrenStop(Process::destroyForcibly);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void an_interrupted_coordinator_stops_its_children_from_its_shutdown_hook() throws Exception {
        assertChildrenStop(Process::destroy); // SIGTERM, as Ctrl-C's SIGINT: the JVM runs its shutdown hooks
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void a_storage_host_serves_signed_requests_and_stops_when_its_input_ends() throws Exception {
        S3Credentials credentials = new S3Credentials("host-access", "host-secret");
        Process host = launch(List.of("storage-host", "--bucket", "host-bucket"), credentials);
        BufferedReader lines = new BufferedReader(new InputStreamReader(host.getInputStream(), StandardCharsets.UTF_8));
        String ready = lines.readLine();
        assertTrue(ready != null && ready.startsWith(StorageHostCommand.READY + " "), String.valueOf(ready));
        URI endpoint = URI.create("http://127.0.0.1:" + ready.split(" ")[1]);
        try (S3Repository bucket = S3Repository.builder("host-bucket").endpoint(endpoint).pathStyle(true)
                .credentials(credentials.accessKeyId(), credentials.secretAccessKey()).build()) {
            bucket.put("a-key", new byte[] {1, 2, 3});
            assertEquals(List.of("a-key"), bucket.list(""));
        }
        host.getOutputStream().close();
        assertTrue(host.waitFor(20, TimeUnit.SECONDS), "the storage host stopped");
        assertEquals(0, host.exitValue());
        assertRefused(endpoint.getPort());
    }

    @Test
    void bad_command_lines_fail_before_anything_starts() {
        assertUsage("--s3 must be http or https URLs separated by commas: ftp://host", "cluster", "--s3",
                "ftp://host");
        assertUsage("--s3-bucket needs --s3", "cluster", "--s3-bucket", "mine");
        assertUsage("--processes must be in [2, 32]: 1", "cluster", "--processes", "1");
        assertUsage("--zookeeper is required", "replica", "--run", "r", "--process", "0");
        assertUsage("--process is required", "replica", "--zookeeper", "h:1", "--run", "r");
        assertUsage("--bucket must be an S3 bucket name (3 to 63 lowercase letters, digits, dots and dashes): B",
                "storage-host", "--bucket", "B");
    }

    @Test
    void a_storage_host_says_which_credentials_it_takes_when_none_are_given() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = Main.run(new String[] {"storage-host", "--help"}, new PrintStream(out, true,
                StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        String help = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        assertEquals(0, status, help);
        assertTrue(help.contains("when they are unset, the tour's own: access key volpex-tour, secret "
                + "volpex-tour-secret"), help);
    }

    private static void assertUsage(String message, String... arguments) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(arguments, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, status, text);
        assertTrue(text.contains(message), text);
    }

    /** Starts a coordinator in a JVM of its own, waits until its replicas run, stops it and checks they all stop. */
    private void assertChildrenStop(java.util.function.Consumer<Process> stop) throws Exception {
        Process coordinator = launch(List.of("cluster", "--processes", "2", "--replicas", "1", "--steps", "200",
                "--sweeps", "200", "--beads", "12", "--pauses", "0", "--logs", logs.toString()),
                S3Credentials.LOOPBACK);
        BufferedReader lines = new BufferedReader(new InputStreamReader(coordinator.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder text = new StringBuilder();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            String line = lines.readLine();
            if (line == null) {
                fail("the coordinator ended early:\n" + text);
            }
            text.append(line).append('\n');
            if (line.matches(".*steps [1-9]\\d*\\.\\..*")) {
                break; // its replicas have run a step
            }
            assertTrue(System.nanoTime() - deadline < 0, "no step within 90 s:\n" + text);
        }
        List<ProcessHandle> children = coordinator.descendants().collect(Collectors.toList());
        assertTrue(children.size() >= 2, "replica JVMs run: " + children + "\n" + text);
        stop.accept(coordinator);
        assertTrue(coordinator.waitFor(30, TimeUnit.SECONDS), "the coordinator stopped");
        long limit = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (ProcessHandle child : children) {
            while (child.isAlive()) {
                assertTrue(System.nanoTime() - limit < 0, child + " still runs after its coordinator stopped");
                Thread.sleep(50);
            }
        }
        for (int port : ports(text.toString())) {
            assertRefused(port);
        }
    }

    /** The ports the run printed: its ZooKeeper servers' and its storage hosts'. */
    private static List<Integer> ports(String text) {
        List<Integer> ports = new ArrayList<>();
        Matcher zookeeper = ZOOKEEPER_PORT.matcher(text.lines().filter(line -> line.contains("ZooKeeper: an ensemble"))
                .findFirst().orElse(""));
        while (zookeeper.find()) {
            ports.add(Integer.parseInt(zookeeper.group(1)));
        }
        Matcher s3 = S3_PORTS.matcher(text);
        if (s3.find()) {
            for (String port : s3.group(1).trim().split(" ")) {
                ports.add(Integer.parseInt(port));
            }
        }
        return ports;
    }

    private Process launch(List<String> arguments, S3Credentials credentials) throws IOException {
        List<String> command = ChildJvm.commandLine(List.of("-Xmx256m", "-XX:+UseSerialGC"), arguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(credentials.environment());
        Process process = builder.start();
        coordinators.add(process);
        return process;
    }

    private static String readAll(Process process, int seconds) throws Exception {
        StringBuilder text = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    synchronized (text) {
                        text.append(line).append('\n');
                    }
                }
            } catch (IOException ended) {
                // Destroyed.
            }
        });
        reader.setDaemon(true);
        reader.start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            synchronized (text) {
                fail("the run did not end within " + seconds + " s:\n" + text);
            }
        }
        reader.join(10_000);
        synchronized (text) {
            return text.toString();
        }
    }

    /** Checks that no child of this JVM runs and that no port the run printed still listens. */
    private static void assertNothingLeft(String text, String context) throws InterruptedException {
        long limit = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive)) {
            assertTrue(System.nanoTime() - limit < 0, "children still run: " + ProcessHandle.current()
                    .descendants().map(ProcessHandle::info).collect(Collectors.toList()) + "\n" + context);
            Thread.sleep(50);
        }
        List<Integer> ports = ports(text);
        assertEquals(3 + 10, ports.size(), "the run printed its ZooKeeper and S3 ports:\n" + context);
        for (int port : ports) {
            assertRefused(port);
        }
    }

    private static void assertRefused(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            fail("port " + port + " still listens");
        } catch (IOException refused) {
            // Nothing listens.
        }
    }

    /** The first group of the first match of {@code regex}, a number that may have thousands separators. */
    private static long bytes(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        if (!matcher.find()) {
            fail("no line matches " + regex + " in:\n" + text);
        }
        return Long.parseLong(matcher.group(1).replace(",", ""));
    }

    private static int number(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        if (!matcher.find()) {
            fail("no line matches " + regex + " in:\n" + text);
        }
        return Integer.parseInt(matcher.group(1));
    }
}
