package io.github.volpex.checkpoint.repository;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointStoreException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.store.FragmentLocation;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.checkpoint.store.Sha256;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.Scale;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Power loss on directory repositories with {@code fsync}, checked in every crash state the file-system operations of
 * a workload allow (the method of ALICE, OSDI '14, and CrashMonkey, OSDI '18; see {@link FileSystemRecorder} for the
 * persistence model). The workload, after a first checkpoint A: commit B, commit C, lose one of C's fragments, repair,
 * collect garbage. For a crash after each of its operations, and each state the unforced operations before it can
 * leave, a new process opens the directories and recovers: it must get the last checkpoint whose commit returned
 * before the crash, or the one being committed, byte for byte; no temporary file may survive the reopening; and repair,
 * recovery and a new commit must work from there.
 *
 * <p>The same check against repositories without {@code fsync} must find a crash state that loses the last committed
 * checkpoint: the enumeration can tell.
 */
class PowerLossTest {

    private static final String JOB = "job";
    private static final boolean FULL = Scale.full();

    /** The stores checked, with how many directories each gets. */
    enum Mode {
        EPHEMERAL(3, repositories -> CheckpointStore.ephemeral(repositories)),
        PERENNIAL(FULL ? 6 : 4, repositories -> CheckpointStore.perennial(FULL ? IdaCodec.systematic(3, 2)
                : IdaCodec.systematic(2, 1), repositories));

        final int directories;
        final Function<List<FragmentRepository>, CheckpointStore.Builder> builder;

        Mode(int directories, Function<List<FragmentRepository>, CheckpointStore.Builder> builder) {
            this.directories = directories;
            this.builder = builder;
        }

        CheckpointStore store(List<FragmentRepository> repositories) {
            return builder.apply(repositories).segmentBytes(64).random(new SplittableRandom(7)).build();
        }
    }

    /** A commit of the workload: where it started and returned among the operations, and its bytes. */
    private record Commit(int started, int returned, byte[] bytes) {
    }

    /** A recorded workload: the recorder and the commits in it (the first, A, before recording started). */
    private record Workload(FileSystemRecorder recorder, List<Commit> commits) {
    }

    /** The repository's temporary files, which its opening deletes unread. */
    private static boolean temporary(String name) {
        return name.startsWith(".");
    }

    private static byte[] checkpoint(int n) {
        byte[] bytes = new byte[150 + 40 * n];
        new SplittableRandom(n).nextBytes(bytes);
        return bytes;
    }

    /**
     * Runs the workload on new directories, recording every file-system operation after A's commit; with
     * {@code oneCommit}, only B's commit follows A.
     */
    private static Workload record(Mode mode, boolean fsync, boolean oneCommit) throws IOException {
        List<Path> directories = new ArrayList<>();
        for (int d = 0; d < mode.directories; d++) {
            directories.add(TestEnvironment.freshDirectory());
        }
        FileSystemRecorder recorder = new FileSystemRecorder(directories, PowerLossTest::temporary);
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int d = 0; d < directories.size(); d++) {
            repositories.add(DirectoryRepository.open("d" + d, directories.get(d), fsync, recorder.log(d)));
        }
        CheckpointStore store = mode.store(repositories);
        List<Commit> commits = new ArrayList<>();
        store.commit(JOB, checkpoint(0));
        commits.add(new Commit(-1, -1, checkpoint(0)));
        recorder.start();
        for (int n = 1; n <= (oneCommit ? 1 : 2); n++) {
            int started = recorder.ops().size();
            recorder.mark("commit " + n);
            FragmentIndex index = store.commit(JOB, checkpoint(n));
            recorder.mark("committed " + n);
            commits.add(new Commit(started, recorder.ops().size(), checkpoint(n)));
            if (n == 2) {
                // A fragment of the last checkpoint is lost; repair regenerates it; collection removes what is left.
                recorder.mark("lose a fragment");
                FragmentLocation lost = index.fragments().get(0);
                repositories.stream().filter(r -> r.id().equals(lost.repositoryId())).findFirst().orElseThrow()
                        .delete(index.fragmentKey(0));
                recorder.mark("repair");
                store.repair(JOB);
                recorder.mark("collect");
                store.collectGarbage(JOB);
            }
        }
        recorder.stop();
        return new Workload(recorder, commits);
    }

    /** What a crash after the first {@code crashPoint} operations may leave recoverable. */
    private static List<byte[]> allowed(Workload workload, int crashPoint) {
        List<byte[]> allowed = new ArrayList<>();
        Commit returned = null;
        for (Commit commit : workload.commits()) {
            if (commit.returned() < crashPoint) {
                returned = commit;
            } else if (commit.started() < crashPoint) {
                allowed.add(commit.bytes());
            }
        }
        allowed.add(0, returned.bytes());
        return allowed;
    }

    /** What the enumeration found: states, distinct states checked, violations. */
    private static final class Tally {
        final Map<Kind, Integer> operations = new EnumMap<>(Kind.class);
        int crashPoints;
        int states;
        int checked;
        int mostPending;
        final List<String> violations = new ArrayList<>();

        @Override
        public String toString() {
            return "operations " + operations + ", crash points " + crashPoints + ", crash states " + states
                    + " (" + checked + " distinct), at most " + mostPending + " directory operations pending";
        }
    }

    private enum Kind {
        CREATE, WRITE, FORCE, RENAME, DELETE, FORCE_DIRECTORY
    }

    private static Kind kind(FileSystemRecorder.Op op) {
        if (op instanceof FileSystemRecorder.Created) {
            return Kind.CREATE;
        } else if (op instanceof FileSystemRecorder.Wrote) {
            return Kind.WRITE;
        } else if (op instanceof FileSystemRecorder.Forced) {
            return Kind.FORCE;
        } else if (op instanceof FileSystemRecorder.Renamed) {
            return Kind.RENAME;
        } else if (op instanceof FileSystemRecorder.Deleted) {
            return Kind.DELETE;
        } else if (op instanceof FileSystemRecorder.ForcedDirectory) {
            return Kind.FORCE_DIRECTORY;
        }
        return null;
    }

    /**
     * Checks every crash state of the workload (every subset of pending directory operations up to
     * {@code exhaustiveUpTo} of them, bounded above that), stopping at the first violation if asked.
     */
    private static Tally enumerate(Mode mode, Workload workload, int exhaustiveUpTo, int bound, boolean stopAtFirst)
            throws IOException {
        Tally tally = new Tally();
        List<FileSystemRecorder.Op> ops = workload.recorder().ops();
        for (FileSystemRecorder.Op op : ops) {
            Kind kind = kind(op);
            if (kind != null) {
                tally.operations.merge(kind, 1, Integer::sum);
            }
        }
        Set<String> seen = new HashSet<>();
        Map<byte[], String> digests = new IdentityHashMap<>();
        Path root = TestEnvironment.freshDirectory();
        // Searching for a violation, the latest crash points come first: they have the most unforced operations.
        for (int step = 0; step <= ops.size(); step++) {
            int crashPoint = stopAtFirst ? ops.size() - step : step;
            if (crashPoint > 0 && ops.get(crashPoint - 1) instanceof FileSystemRecorder.Mark) {
                continue;
            }
            tally.crashPoints++;
            tally.mostPending = Math.max(tally.mostPending, workload.recorder().pending(crashPoint));
            List<byte[]> allowed = allowed(workload, crashPoint);
            int point = crashPoint;
            tally.states += workload.recorder().crashStates(crashPoint, exhaustiveUpTo, bound, state -> {
                if (stopAtFirst && !tally.violations.isEmpty()) {
                    return;
                }
                String key = state.fingerprint(PowerLossTest::temporary,
                        content -> digests.computeIfAbsent(content, c -> Sha256.of(c).toString()))
                        + allowed.stream().map(Sha256::of).toList();
                if (!seen.add(key)) {
                    return;
                }
                tally.checked++;
                String violation = check(mode, state, allowed, root.resolve("s" + tally.checked));
                if (violation != null) {
                    tally.violations.add("crash after operation " + point + " (" + (point == 0 ? "none"
                            : ops.get(point - 1)) + "): " + violation);
                }
            });
            if (stopAtFirst && !tally.violations.isEmpty()) {
                break;
            }
        }
        return tally;
    }

    /** Recovers in one crash state; returns what is wrong, or null. */
    private static String check(Mode mode, FileSystemRecorder.CrashState state, List<byte[]> allowed, Path where) {
        try {
            List<FragmentRepository> repositories = new ArrayList<>();
            for (int d = 0; d < state.files().size(); d++) {
                Path directory = Files.createDirectories(where.resolve("d" + d));
                for (Map.Entry<String, byte[]> file : state.files().get(d).entrySet()) {
                    Files.write(directory.resolve(file.getKey()), file.getValue());
                }
                repositories.add(DirectoryRepository.open("d" + d, directory, false));
                try (Stream<Path> files = Files.list(directory)) {
                    List<String> left = files.map(f -> f.getFileName().toString()).filter(PowerLossTest::temporary)
                            .toList();
                    if (!left.isEmpty()) {
                        return "temporary files survive the reopening: " + left;
                    }
                }
            }
            CheckpointStore store = mode.store(repositories);
            Optional<RecoveredCheckpoint> recovered;
            try {
                recovered = store.recover(JOB);
            } catch (CheckpointStoreException e) {
                return "recovery failed: " + e.getMessage();
            }
            if (recovered.isEmpty()) {
                return "no checkpoint recovered";
            }
            byte[] bytes = recovered.get().toByteArray();
            if (allowed.stream().noneMatch(a -> Arrays.equals(a, bytes))) {
                return "recovered " + bytes.length + " bytes, neither the last committed checkpoint nor the one "
                        + "being committed";
            }
            store.repair(JOB);
            if (!Arrays.equals(bytes, store.recover(JOB).orElseThrow().toByteArray())) {
                return "repair changed what recovery returns";
            }
            byte[] next = checkpoint(9);
            store.commit(JOB, next);
            if (!Arrays.equals(next, mode.store(repositories).recover(JOB).orElseThrow().toByteArray())) {
                return "a commit after the crash is not what recovery returns";
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (CheckpointStoreException e) {
            return "after recovery: " + e.getMessage();
        } finally {
            deleteTree(where);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void with_fsync_every_crash_state_recovers_the_last_committed_checkpoint_or_the_one_being_committed(Mode mode)
            throws IOException {
        Workload workload = record(mode, true, false);
        Tally tally = enumerate(mode, workload, 12, 3, false);
        System.out.println(mode + ", fsync: " + tally);
        assertTrue(tally.mostPending <= 12, "the enumeration was not exhaustive: " + tally);
        assertTrue(tally.checked > 0 && tally.operations.getOrDefault(Kind.RENAME, 0) > 0, tally.toString());
        assertEquals(List.of(), tally.violations.subList(0, Math.min(5, tally.violations.size())),
                tally.violations.size() + " violations; " + tally);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void without_fsync_some_crash_state_loses_the_last_committed_checkpoint(Mode mode) throws IOException {
        Workload workload = record(mode, false, true);
        Tally tally = enumerate(mode, workload, 8, 2, true);
        System.out.println(mode + ", no fsync: " + tally + ", first violation " + tally.violations);
        assertFalse(tally.violations.isEmpty(), "no crash state without fsync loses anything: " + tally);
        assertEquals(0, tally.operations.getOrDefault(Kind.FORCE, 0));
    }
}
