package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CommitFailedException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.ProcessCheckpoint;
import io.github.volpex.checkpoint.store.StaleWriterException;
import io.github.volpex.erasure.IdaCodec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A replica of one process in a JVM of its own, for the election tests: it joins the job's {@link WriterElection} and,
 * whenever it is the writer, commits process checkpoints ({@code <name>:<n>} at request number {@code n}) to shared
 * directory repositories with the election as the store's epoch source. It reports on its standard output, one line
 * per event, each with {@link System#nanoTime()} (the same clock in every JVM of one machine):
 * <ul>
 *   <li>{@code ROLE <role> <epoch> <t>}: every change of its role (from the listener);</li>
 *   <li>{@code BEGIN <n> <t>}, then {@code COMMITTED <n> <epoch> <t>}, {@code STALE <n> <epoch> <newer> <t>} or
 *       {@code FAILED <n> <t> <message>}: each commit;</li>
 *   <li>{@code SESSION <id> <password>} (hex): answers the command {@code session}.</li>
 * </ul>
 * It stops when its input ends, and after three minutes whatever happens. Arguments: connect string, epochs path,
 * repositories directory, job id, name, session timeout in milliseconds.
 */
public final class ElectionMain {

    private ElectionMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        ChildJvms.haltAfter(TimeUnit.MINUTES.toMillis(3));
        String job = args[3];
        String name = args[4];
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            repositories.add(FragmentRepository.directory("r" + i, Path.of(args[2], "r" + i), false));
        }
        try (WriterElection election = WriterElection.builder(args[0], args[1], job).name(name)
                .sessionTimeout(Duration.ofMillis(Long.parseLong(args[5]))).executor(Runnable::run)
                .listener((role, epoch) -> report(out, "ROLE " + role + " " + epoch)).join()) {
            CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories)
                    .epochs(election).build();
            Thread writer = new Thread(() -> commitWhileWriter(election, store, job, name, out), "writer");
            writer.setDaemon(true);
            writer.start();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                if (line.trim().equals("session")) {
                    report(out, "SESSION " + Long.toHexString(election.sessionId()) + " "
                            + HexFormat.of().formatHex(election.sessionPassword()));
                }
            }
        } catch (Throwable failure) {
            out.println("ERROR " + failure);
            failure.printStackTrace();
            Runtime.getRuntime().halt(1);
        }
        Runtime.getRuntime().halt(0);
    }

    private static void commitWhileWriter(WriterElection election, CheckpointStore store, String job, String name,
                                          PrintStream out) {
        for (long n = 1; ; ) {
            try {
                if (election.isWriter()) {
                    report(out, "BEGIN " + n);
                    try {
                        FragmentIndex index = store.commit(job, ProcessCheckpoint.of(n, payload(name, n)));
                        report(out, "COMMITTED " + n + " " + index.epoch());
                    } catch (StaleWriterException e) {
                        report(out, "STALE " + n + " " + e.epoch() + " " + e.newerEpoch());
                    } catch (CommitFailedException e) {
                        report(out, "FAILED " + n + " " + e.getMessage().replace('\n', ' '));
                    }
                    n++;
                }
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                report(out, "FAILED " + n + " " + e);
                n++;
            }
        }
    }

    /** What member {@code name} commits as its {@code n}-th checkpoint. */
    static byte[] payload(String name, long n) {
        return (name + ":" + n).getBytes(StandardCharsets.UTF_8);
    }

    private static void report(PrintStream out, String event) {
        long now = System.nanoTime();
        synchronized (out) {
            int space = event.indexOf(' ', event.indexOf(' ') + 1);
            // The time goes after the event's numbers, before a FAILED message.
            if (event.startsWith("FAILED ")) {
                out.println(event.substring(0, space) + " " + now + event.substring(space));
            } else {
                out.println(event + " " + now);
            }
        }
    }
}
