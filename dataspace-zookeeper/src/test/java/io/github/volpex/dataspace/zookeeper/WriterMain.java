package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CommitFailedException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.checkpoint.store.StaleWriterException;
import io.github.volpex.erasure.IdaCodec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A checkpoint writer in a JVM of its own, for {@code SeparateJvmWritersTest}: a {@link CheckpointStore} over nine
 * directory repositories that every writer shares, with epochs from a {@link ZooKeeperEpochSource}. It answers
 * commands on its standard input, one a line, with one line each on its standard output:
 * <ul>
 *   <li>{@code commit N}: commits checkpoint {@code <name>-N}; {@code COMMITTED N <epoch>}, {@code STALE N <epoch>
 *       <newer epoch>} or {@code FAILED N <message>};</li>
 *   <li>{@code commits FROM COUNT}: as many commits in a row, one answer each;</li>
 *   <li>{@code held N}: starts committing {@code <name>-N} and holds it at its first index copy, answering
 *       {@code HELD N}; {@code release} lets it go on, and its answer follows;</li>
 *   <li>{@code recover}: {@code RECOVERED <label> <epoch>} or {@code RECOVERED none};</li>
 *   <li>{@code expiries}: {@code EXPIRIES n}, the sessions ZooKeeper expired so far.</li>
 * </ul>
 * It prints {@code SESSION <id> <password>} (hex) first, exits when its input ends, and after two minutes whatever
 * happens. Arguments: connect string, epochs path, repositories directory, job id, name.
 */
public final class WriterMain {

    private WriterMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        ChildJvms.haltAfter(TimeUnit.MINUTES.toMillis(2));
        String job = args[3];
        String name = args[4];
        IndexGate gate = new IndexGate();
        List<FragmentRepository> directories = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            directories.add(FragmentRepository.directory("r" + i, Path.of(args[2], "r" + i), false));
        }
        List<FragmentRepository> repositories = gate.guard(directories);
        try (ZooKeeperEpochSource epochs = ZooKeeperEpochSource.connect(args[0], args[1])) {
            CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
                    .epochs(epochs).build();
            out.println("SESSION " + Long.toHexString(epochs.sessionId()) + " "
                    + HexFormat.of().formatHex(epochs.sessionPassword()));
            Thread held = null;
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                String[] words = line.trim().split(" ");
                switch (words[0]) {
                    case "commit" -> out.println(commit(store, job, name, Integer.parseInt(words[1])));
                    case "commits" -> {
                        int from = Integer.parseInt(words[1]);
                        for (int n = from; n < from + Integer.parseInt(words[2]); n++) {
                            out.println(commit(store, job, name, n));
                        }
                    }
                    case "held" -> {
                        int n = Integer.parseInt(words[1]);
                        gate.arm();
                        held = new Thread(() -> out.println(commit(store, job, name, n)), "held");
                        held.start();
                        if (!gate.awaitHeld(30)) {
                            throw new IllegalStateException("the commit never reached an index copy");
                        }
                        out.println("HELD " + n);
                    }
                    case "release" -> {
                        gate.release();
                        if (held != null) {
                            held.join(30_000);
                        }
                    }
                    case "recover" -> {
                        Optional<RecoveredCheckpoint> recovered = store.recover(job);
                        out.println(recovered.map(r -> "RECOVERED " + label(r.toByteArray()) + " " + r.index().epoch())
                                .orElse("RECOVERED none"));
                    }
                    case "expiries" -> out.println("EXPIRIES " + epochs.expiries());
                    default -> throw new IllegalArgumentException("unknown command: " + line);
                }
            }
        } catch (Throwable failure) {
            out.println("ERROR " + failure);
            failure.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static String commit(CheckpointStore store, String job, String name, int n) {
        try {
            FragmentIndex index = store.commit(job, payload(name + "-" + n));
            return "COMMITTED " + n + " " + index.epoch();
        } catch (StaleWriterException e) {
            return "STALE " + n + " " + e.epoch() + " " + e.newerEpoch();
        } catch (CommitFailedException e) {
            return "FAILED " + n + " " + e.getMessage().replace('\n', ' ');
        }
    }

    /** 48 KiB that start with the label, then bytes drawn from it. */
    static byte[] payload(String label) {
        byte[] bytes = new byte[48 << 10];
        new SplittableRandom(label.hashCode()).nextBytes(bytes);
        byte[] text = label.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(text, 0, bytes, 0, text.length);
        bytes[text.length] = 0;
        return bytes;
    }

    /** The label a payload starts with. */
    static String label(byte[] payload) {
        int end = 0;
        while (end < payload.length && payload[end] != 0) {
            end++;
        }
        return new String(payload, 0, end, StandardCharsets.UTF_8);
    }
}
