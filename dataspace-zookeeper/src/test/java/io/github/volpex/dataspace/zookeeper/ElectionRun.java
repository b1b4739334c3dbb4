package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.ProcessCheckpoint;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.erasure.IdaCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One run of a job's writer election with every member in a JVM of its own ({@link ElectionMain}), on an ensemble the
 * test gives it, and the faults a test injects from outside: SIGKILL, SIGSTOP past the session timeout then SIGCONT,
 * an expired session, a failover of the ensemble's leader. Every member's events go to one history, with the time
 * each happened (every JVM of a machine reads the same monotonic clock), which {@link #check()} judges:
 * <ul>
 *   <li>one member per epoch: no two members were ever the writer under the same epoch;</li>
 *   <li>fencing: no commit that began after a newer epoch's writer was elected succeeded — at every instant, only
 *       the newest writer can commit;</li>
 *   <li>no checkpoint lost: recovery returns the last checkpoint committed under the greatest epoch, or a later one
 *       that reached its commit point before its writer was killed.</li>
 * </ul>
 * Each fault waits for the takeover it causes, records how long it took (the time from the fault to the new writer's
 * election) and checks it against a generous liveness bound: the documented bound plus slack for a loaded machine,
 * counted from the fault — or, for a leader failover, from the moment the ensemble serves a new session again: how
 * long the ensemble itself takes to elect a leader and sync its followers is ZooKeeper's, not the writer election's
 * (on a machine shared with other builds it once took more than ten seconds).
 * Members run 5 directory repositories under {@code shared}; their logs go to {@code target/election-jvms}.
 */
final class ElectionRun implements AutoCloseable {

    /** The members' session timeout. */
    static final long SESSION_MILLIS = 2_000;
    /** The ensemble's tick (EmbeddedZooKeeper). */
    static final long TICK_MILLIS = 500;
    /**
     * A liveness bound, not a timing: the documented takeover bound (session timeout and one tick) plus ten seconds
     * for a machine shared with other builds. The measured times are far below it (see docs/across-machines.md).
     */
    static final long TAKEOVER_BOUND_MILLIS = SESSION_MILLIS + TICK_MILLIS + 10_000;
    private static final long WAIT_SECONDS = 40;
    private static final String JOB = "p-3";
    private static final Path LOGS = Path.of("target", "election-jvms");

    /** What a fault is. */
    enum Fault {
        KILL, PAUSE, EXPIRE, FAILOVER
    }

    /** One event of a member. */
    record Event(String member, String kind, long[] numbers, long nanos) {
    }

    private final EmbeddedZooKeeper ensemble;
    private final String path;
    private final Path shared;
    private final List<Member> members = Collections.synchronizedList(new ArrayList<>());
    private final List<Event> history = Collections.synchronizedList(new ArrayList<>());
    private final Map<Fault, List<Long>> takeovers = Collections.synchronizedMap(new HashMap<>());
    private int names;

    ElectionRun(EmbeddedZooKeeper ensemble, String path, Path shared) {
        this.ensemble = ensemble;
        this.path = path;
        this.shared = shared;
    }

    /** The takeover times measured, in milliseconds, by fault. */
    Map<Fault, List<Long>> takeovers() {
        return takeovers;
    }

    /** Starts a member. */
    Member start() throws IOException {
        Files.createDirectories(LOGS);
        String name = "m" + (++names);
        Path log = LOGS.resolve(name + "-" + Long.toHexString(System.nanoTime()) + ".log");
        Process process = ChildJvms.start("info", log, ElectionMain.class, ensemble.connectString(), path,
                shared.toString(), JOB, name, Long.toString(SESSION_MILLIS));
        Member member = new Member(name, process, log);
        members.add(member);
        return member;
    }

    /** Starts members until {@code count} live. */
    void startUntil(int count) throws IOException {
        while (live().size() < count) {
            start();
        }
    }

    List<Member> live() {
        synchronized (members) {
            return members.stream().filter(m -> !m.dead).toList();
        }
    }

    /** Waits until a live member is the writer and returns it. */
    Member awaitWriter() throws InterruptedException {
        return awaitEvent("a writer", e -> true, 0).member;
    }

    /**
     * Waits until a live member's last role event says it is the writer under an epoch greater than {@code above}
     * and was reported after {@code after}; returns it.
     */
    private Found awaitEvent(String what, Predicate<Event> also, long above) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (true) {
            // A member paused or cut off may still count itself the writer of an older epoch: the newest counts.
            Found newest = null;
            for (Member member : live()) {
                Event role = lastRole(member.name);
                if (role != null && role.kind.equals("WRITER") && role.numbers[0] > above && also.test(role)
                        && !member.paused && (newest == null || role.numbers[0] > newest.event.numbers[0])) {
                    newest = new Found(member, role);
                }
            }
            if (newest != null) {
                return newest;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("waited " + WAIT_SECONDS + " s for " + what + ":\n" + describe());
            }
            Thread.sleep(10);
        }
    }

    private record Found(Member member, Event event) {
    }

    private Event lastRole(String member) {
        synchronized (history) {
            for (int i = history.size() - 1; i >= 0; i--) {
                Event event = history.get(i);
                if (event.member.equals(member) && event.kind.startsWith("ROLE")) {
                    return new Event(event.member, event.kind.substring(5), event.numbers, event.nanos);
                }
            }
        }
        return null;
    }

    /** Injects {@code fault} on the current writer (or the ensemble) and waits for the writer that follows. */
    void inject(Fault fault) throws Exception {
        Found writer = awaitEvent("a writer before " + fault, e -> true, 0);
        long epoch = writer.event.numbers[0];
        Member victim = writer.member;
        long start = System.nanoTime();
        switch (fault) {
            case KILL -> {
                victim.process.destroyForcibly();
                victim.dead = true;
                record(fault, start, start, awaitEvent("a writer after killing " + victim.name, e -> true, epoch));
                start();
            }
            case PAUSE -> {
                signal(victim, "STOP");
                victim.paused = true;
                Found next = awaitEvent("a writer after pausing " + victim.name, e -> true, epoch);
                record(fault, start, start, next);
                Thread.sleep(300); // the new writer commits meanwhile
                long resumed = System.nanoTime();
                signal(victim, "CONT");
                victim.paused = false;
                awaitOwn(victim, "learns it lost the role after SIGCONT", e -> e.nanos - resumed > 0
                        && e.kind.startsWith("ROLE") && !e.kind.equals("ROLE WRITER"));
            }
            case EXPIRE -> {
                String[] session = victim.ask("session", "SESSION ");
                Sessions.expire(ensemble.connectString(), Long.parseUnsignedLong(session[1], 16),
                        HexFormat.of().parseHex(session[2]));
                record(fault, start, start, awaitEvent("a writer after expiring " + victim.name, e -> true,
                        epoch));
                awaitOwn(victim, "learns its session expired", e -> e.nanos - start > 0 && e.kind.startsWith("ROLE")
                        && !e.kind.equals("ROLE WRITER"));
            }
            case FAILOVER -> {
                int leader = ensemble.leader();
                ensemble.stop(leader);
                try {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
                    while (ensemble.leader() < 0) {
                        assertTrue(System.nanoTime() - deadline < 0, "a new leader of the ensemble");
                        Thread.sleep(20);
                    }
                } finally {
                    ensemble.restart(leader);
                }
                long serving = awaitServing();
                // The writer keeps its role through a failover its session survives, or loses it and is elected
                // again: the takeover is the time until a member is the writer again (0 if none stopped being it).
                record(fault, start, serving, awaitEvent("a writer after the failover", e -> true, 0));
            }
            default -> throw new AssertionError(fault);
        }
    }

    /** Waits until the writer found commits after {@code after}: every fault is followed by progress. */
    private void awaitCommit(Found writer, long after) throws InterruptedException {
        awaitOwn(writer.member, "commits under epoch " + writer.event.numbers[0], e -> e.kind.equals("COMMITTED")
                && e.numbers[1] == writer.event.numbers[0] && e.nanos - after > 0);
    }

    /**
     * Records the takeover {@code next} that followed the fault injected at {@code start}, and checks that it came
     * within the liveness bound of {@code boundFrom}: the fault, or the moment the ensemble served again.
     */
    private void record(Fault fault, long start, long boundFrom, Found next) throws InterruptedException {
        awaitCommit(next, start);
        long millis = TimeUnit.NANOSECONDS.toMillis(Math.max(0, next.event.nanos - start));
        takeovers.computeIfAbsent(fault, f -> Collections.synchronizedList(new ArrayList<>())).add(millis);
        long bounded = TimeUnit.NANOSECONDS.toMillis(Math.max(0, next.event.nanos - boundFrom));
        assertTrue(bounded <= TAKEOVER_BOUND_MILLIS, fault + ": " + next.member.name + " took over after " + millis
                + " ms, " + bounded + " ms of them " + (boundFrom == start ? "" : "after the ensemble served again, ")
                + "beyond the liveness bound of " + TAKEOVER_BOUND_MILLIS + " ms:\n" + describe());
    }

    /**
     * Waits until the ensemble serves a new session (which needs a leader and a quorum that follows it) and returns
     * when it did.
     *
     * @throws AssertionError if it did not within 30 s
     */
    private long awaitServing() throws Exception {
        org.apache.zookeeper.ZooKeeper probe = Sessions.connect(ensemble.connectString());
        long serving = System.nanoTime();
        probe.close();
        return serving;
    }

    private void awaitOwn(Member member, String what, Predicate<Event> event) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (true) {
            synchronized (history) {
                for (Event e : history) {
                    if (e.member.equals(member.name) && event.test(e)) {
                        return;
                    }
                }
            }
            if (System.nanoTime() - deadline > 0) {
                fail(member.name + " " + what + " within " + WAIT_SECONDS + " s:\n" + describe());
            }
            Thread.sleep(10);
        }
    }

    private static void signal(Member member, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(member.process.pid()))
                .redirectErrorStream(true).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " "
                + member.name);
    }

    /** Kills every member but {@code keep}, then waits until {@code keep} is the writer. */
    void killAllBut(Member keep) throws Exception {
        long start = System.nanoTime();
        for (Member member : live()) {
            if (member != keep) {
                member.process.destroyForcibly();
                member.dead = true;
            }
        }
        awaitCommit(awaitEvent(keep.name + " elected once it is alone", e -> true, 0), start);
    }

    /**
     * Stops every member (the live ones leave cleanly as their input ends) and judges the history: one member per
     * epoch, fencing, and no checkpoint lost.
     */
    void check() throws Exception {
        for (Member member : live()) {
            member.input.close();
        }
        for (Member member : live()) {
            assertTrue(member.process.waitFor(30, TimeUnit.SECONDS), member.name + " left");
            member.reader.join(10_000);
        }
        List<Event> events;
        synchronized (history) {
            events = new ArrayList<>(history);
        }
        // One member per epoch.
        Map<Long, String> writerOf = new HashMap<>();
        for (Event e : events) {
            if (e.kind.equals("ROLE WRITER")) {
                String before = writerOf.putIfAbsent(e.numbers[0], e.member);
                assertTrue(before == null || before.equals(e.member), "epoch " + e.numbers[0] + " had two writers, "
                        + before + " and " + e.member + ":\n" + describe());
            }
        }
        // Fencing: a commit that began after a newer epoch's election did not succeed.
        Map<String, Long> begun = new HashMap<>();
        Event last = null;
        for (Event e : events) {
            if (e.kind.equals("BEGIN")) {
                begun.put(e.member + ":" + e.numbers[0], e.nanos);
            } else if (e.kind.equals("COMMITTED")) {
                long epoch = e.numbers[1];
                long began = begun.get(e.member + ":" + e.numbers[0]);
                for (Event other : events) {
                    if (other.kind.equals("ROLE WRITER") && other.numbers[0] > epoch && other.nanos - began < 0) {
                        fail(e.member + " committed #" + e.numbers[0] + " under epoch " + epoch + " in a commit begun "
                                + "after " + other.member + " was elected under epoch " + other.numbers[0] + ":\n"
                                + describe());
                    }
                }
                if (last == null || epoch > last.numbers[1]
                        || (epoch == last.numbers[1] && e.numbers[0] > last.numbers[0])) {
                    last = e;
                }
            }
        }
        assertTrue(last != null, "some checkpoint was committed:\n" + describe());
        // No checkpoint lost.
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            repositories.add(FragmentRepository.directory("r" + i, shared.resolve("r" + i), false));
        }
        CheckpointStore reader = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories).build();
        RecoveredCheckpoint recovered = reader.recover(JOB).orElseThrow();
        ProcessCheckpoint checkpoint = ProcessCheckpoint.parse(recovered.toByteArray());
        long epoch = recovered.index().epoch();
        String context = "recovered #" + checkpoint.requestNumber() + " under epoch " + epoch + "; the last commit "
                + "that returned was " + last.member + " #" + last.numbers[0] + " under epoch " + last.numbers[1]
                + ":\n" + describe();
        assertTrue(epoch > last.numbers[1] || (epoch == last.numbers[1]
                && checkpoint.requestNumber() >= last.numbers[0]), context);
        String writer = writerOf.get(epoch);
        assertTrue(writer != null, context);
        assertArrayEquals(ElectionMain.payload(writer, checkpoint.requestNumber()), checkpoint.state(), context);
        assertTrue(begun.containsKey(writer + ":" + checkpoint.requestNumber()), context);
    }

    /** The history, for failure messages. */
    String describe() {
        StringBuilder text = new StringBuilder();
        long origin = -1;
        synchronized (history) {
            for (Event e : history) {
                if (origin < 0) {
                    origin = e.nanos;
                }
                StringBuilder numbers = new StringBuilder();
                for (long n : e.numbers) {
                    numbers.append(' ').append(n);
                }
                text.append(String.format("%8.3f s %s %s%s%n", (e.nanos - origin) / 1e9, e.member, e.kind, numbers));
            }
        }
        return text.toString();
    }

    @Override
    public void close() {
        for (Member member : new ArrayList<>(members)) {
            member.process.destroyForcibly();
        }
        for (Member member : new ArrayList<>(members)) {
            try {
                member.process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A member's JVM. */
    final class Member {
        final String name;
        final Process process;
        final Path log;
        final OutputStream input;
        final Thread reader;
        final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        volatile boolean dead;
        volatile boolean paused;

        Member(String name, Process process, Path log) {
            this.name = name;
            this.process = process;
            this.log = log;
            this.input = process.getOutputStream();
            this.reader = new Thread(this::read, "member-" + name);
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    parse(line);
                }
            } catch (IOException ended) {
                // Killed.
            }
        }

        private void parse(String line) {
            String[] words = line.split(" ");
            switch (words[0]) {
                case "ROLE" -> history.add(new Event(name, "ROLE " + words[1], new long[] {Long.parseLong(words[2])},
                        Long.parseLong(words[3])));
                case "BEGIN" -> history.add(new Event(name, "BEGIN", new long[] {Long.parseLong(words[1])},
                        Long.parseLong(words[2])));
                case "COMMITTED" -> history.add(new Event(name, "COMMITTED", new long[] {Long.parseLong(words[1]),
                        Long.parseLong(words[2])}, Long.parseLong(words[3])));
                case "STALE" -> history.add(new Event(name, "STALE", new long[] {Long.parseLong(words[1]),
                        Long.parseLong(words[2]), Long.parseLong(words[3])}, Long.parseLong(words[4])));
                case "FAILED" -> history.add(new Event(name, "FAILED", new long[] {Long.parseLong(words[1])},
                        Long.parseLong(words[2])));
                default -> answers.add(line);
            }
        }

        /** Sends a command and waits for the answer starting with {@code prefix}; returns its words. */
        String[] ask(String command, String prefix) throws Exception {
            input.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
            String line = answers.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(line != null && line.startsWith(prefix), name + " answered " + line + " (log " + log + ": "
                    + ChildJvms.tail(log) + ")");
            return line.split(" ");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Formats takeover times as "median x ms, worst y ms (n)". */
    static String summary(List<Long> millis) {
        List<Long> sorted = new ArrayList<>(millis);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            return "none";
        }
        long median = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        return "median " + median + " ms, worst " + sorted.get(sorted.size() - 1) + " ms (" + sorted.size() + ")";
    }
}
