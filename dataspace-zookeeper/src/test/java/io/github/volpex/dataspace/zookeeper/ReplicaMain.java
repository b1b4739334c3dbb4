package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testkit.ReplicatedPrograms;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One replica in a JVM of its own, for {@code SeparateJvmReplicasTest}: connects to the dataspace, opens process
 * {@code pid} at its saved request number, runs its program and prints {@code OBS <observation>} for every completed
 * call, then {@code DONE}. It stops when its standard input says {@code STOP} or closes (the test ended or died), and
 * after two minutes whatever happens.
 *
 * <p>Arguments: connect string, namespace, process count, process id, saved request number, program (steps
 * {@code <operation>:<hex of the tag's UTF-8>} separated by commas).
 */
public final class ReplicaMain {

    private static volatile boolean stop;

    private ReplicaMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Thread watchdog = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null && !line.equals("STOP")) {
                    // Only STOP or the end of input matter.
                }
            } catch (IOException ignored) {
                // The parent is gone.
            }
            stop = true;
        }, "stdin");
        watchdog.setDaemon(true);
        watchdog.start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        int processId = Integer.parseInt(args[3]);
        List<ProgramStep> program = decode(args[5]);
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.connect(args[0], args[1], Integer.parseInt(args[2]))) {
            Replica replica = dataspace.open(processId, Long.parseLong(args[4]));
            out.println("READY");
            boolean done = false;
            while (!stop && System.nanoTime() - deadline < 0) {
                if (replica.requestNumber() == program.size()) {
                    if (!done) {
                        out.println("DONE");
                        done = true;
                    }
                    Thread.sleep(10);
                    continue;
                }
                Optional<String> observation = ReplicatedPrograms.step(replica, program, Duration.ofMillis(100));
                observation.ifPresent(value -> out.println("OBS " + value));
            }
        } catch (Throwable failure) {
            out.println("FAIL " + failure);
            failure.printStackTrace(out);
            System.exit(1);
        }
        System.exit(0);
    }

    /** Encodes a program as the last argument. */
    static String encode(List<ProgramStep> program) {
        List<String> steps = new ArrayList<>();
        for (ProgramStep step : program) {
            steps.add(step.operation() + ":" + HexFormat.of().formatHex(step.tag().getBytes(StandardCharsets.UTF_8)));
        }
        return String.join(",", steps);
    }

    static List<ProgramStep> decode(String encoded) {
        List<ProgramStep> program = new ArrayList<>();
        for (String step : encoded.split(",")) {
            int colon = step.indexOf(':');
            program.add(new ProgramStep(Operation.valueOf(step.substring(0, colon)),
                    new String(HexFormat.of().parseHex(step.substring(colon + 1)), StandardCharsets.UTF_8)));
        }
        return program;
    }
}
