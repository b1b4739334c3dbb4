package io.github.volpex.checkpoint.repository;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Records what directory repositories do to their file systems ({@link FileLog}), in the order it happens, and
 * rebuilds every state a power loss could leave, in the manner of ALICE (Pillai et al., OSDI '14) and CrashMonkey
 * (Mohan et al., OSDI '18): a crash after any prefix of the operations, in which everything forced before the crash
 * is on the device, and of what was not forced, any subset of the directory operations and, for each file left, its
 * unforced writes whole, lost, half done or as zeros.
 *
 * <p>The persistence model, per directory and per file:
 * <ul>
 *   <li>a directory operation (create, rename, delete) is durable once its directory was forced after it; before
 *       that it may or may not have reached the device, independently of the others (no order is assumed);</li>
 *   <li>a write is durable once its file was forced after it; before that the file may hold it, not hold it, hold
 *       the first half of the unforced writes, or zeros where they went (the size reached the device, the data did
 *       not);</li>
 *   <li>a rename moves a file (an inode), whatever became of its old name: a state may show the new name with the
 *       file's forced content even if the file's creation under its temporary name never reached the device.</li>
 * </ul>
 * The files present when recording starts are taken as durable.
 */
final class FileSystemRecorder {

    /** One operation, in the order they were made. Inodes number files across their renames. */
    sealed interface Op permits Created, Wrote, Forced, Renamed, Deleted, ForcedDirectory, Mark {
    }

    record Created(int directory, String name, int inode) implements Op {
    }

    record Wrote(int inode, long position, byte[] bytes) implements Op {
        @Override
        public String toString() {
            return "Wrote[inode=" + inode + ", position=" + position + ", " + bytes.length + " bytes]";
        }
    }

    record Forced(int inode) implements Op {
    }

    record Renamed(int directory, String from, String to, int inode) implements Op {
    }

    record Deleted(int directory, String name, int inode) implements Op {
    }

    record ForcedDirectory(int directory) implements Op {
    }

    /** A boundary the test records between operations (a store call that starts or returns). */
    record Mark(String label) implements Op {
    }

    /** One state a crash can leave: the files of each directory, by name. */
    record CrashState(int crashPoint, List<Map<String, byte[]>> files) {

        /**
         * Identifies the state by its content (the names alone of scratch files), so that equal states are checked
         * once; {@code digest} names a content.
         */
        String fingerprint(Predicate<String> scratch, Function<byte[], String> digest) {
            StringBuilder s = new StringBuilder();
            for (Map<String, byte[]> directory : files) {
                s.append('|');
                new TreeMap<>(directory).forEach((name, content) -> s.append(name).append('=')
                        .append(scratch.test(name) ? "" : digest.apply(content)).append(','));
            }
            return s.toString();
        }
    }

    private final List<Path> directories;
    /** Names of files whose content nobody reads (temporary files): their unforced writes are not varied. */
    private final Predicate<String> scratch;
    private final List<Op> ops = Collections.synchronizedList(new ArrayList<>());
    /** The files when recording started, by directory: name → inode, and inode → content. */
    private final List<Map<String, Integer>> baselineNames = new ArrayList<>();
    private final Map<Integer, byte[]> baselineContent = new HashMap<>();
    /** The names as the operations left them, to tell which inode each operation concerns. */
    private final List<Map<String, Integer>> live = new ArrayList<>();
    private int nextInode;
    private volatile boolean recording;

    FileSystemRecorder(List<Path> directories, Predicate<String> scratch) {
        this.directories = List.copyOf(directories);
        this.scratch = scratch;
        for (int d = 0; d < directories.size(); d++) {
            baselineNames.add(new HashMap<>());
            live.add(new HashMap<>());
        }
    }

    /** The log to give the repository on directory {@code d}. */
    FileLog log(int d) {
        return new FileLog() {
            @Override
            public void created(Path file) {
                record(() -> {
                    int inode = nextInode++;
                    live.get(d).put(name(file), inode);
                    ops.add(new Created(d, name(file), inode));
                });
            }

            @Override
            public void wrote(Path file, long position, byte[] bytes, int offset, int length) {
                record(() -> ops.add(new Wrote(inode(d, file), position,
                        Arrays.copyOfRange(bytes, offset, offset + length))));
            }

            @Override
            public void forced(Path file) {
                record(() -> ops.add(new Forced(inode(d, file))));
            }

            @Override
            public void renamed(Path from, Path to) {
                record(() -> {
                    int inode = live.get(d).remove(name(from));
                    live.get(d).put(name(to), inode);
                    ops.add(new Renamed(d, name(from), name(to), inode));
                });
            }

            @Override
            public void deleted(Path file) {
                record(() -> {
                    Integer inode = live.get(d).remove(name(file));
                    ops.add(new Deleted(d, name(file), inode == null ? -1 : inode));
                });
            }

            @Override
            public void forcedDirectory(Path directory) {
                record(() -> ops.add(new ForcedDirectory(d)));
            }
        };
    }

    private synchronized void record(Runnable operation) {
        if (recording) {
            operation.run();
        }
    }

    private static String name(Path file) {
        return file.getFileName().toString();
    }

    private int inode(int d, Path file) {
        return live.get(d).get(name(file));
    }

    /** Takes what the directories hold now as durable, and records from now on. */
    synchronized void start() throws IOException {
        for (int d = 0; d < directories.size(); d++) {
            try (Stream<Path> files = Files.list(directories.get(d))) {
                for (Path file : files.toList()) {
                    int inode = nextInode++;
                    baselineNames.get(d).put(name(file), inode);
                    live.get(d).put(name(file), inode);
                    baselineContent.put(inode, Files.readAllBytes(file));
                }
            }
        }
        recording = true;
    }

    synchronized void stop() {
        recording = false;
    }

    void mark(String label) {
        record(() -> ops.add(new Mark(label)));
    }

    List<Op> ops() {
        return List.copyOf(ops);
    }

    /** How many directory operations and writes were not yet durable after the first {@code crashPoint} operations. */
    int pending(int crashPoint) {
        return pendingNamespace(crashPoint).size();
    }

    private List<Integer> pendingNamespace(int crashPoint) {
        int[] lastDirectoryForce = lastDirectoryForces(crashPoint);
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < crashPoint; i++) {
            int d = directoryOf(ops.get(i));
            if (d >= 0 && i > lastDirectoryForce[d]) {
                pending.add(i);
            }
        }
        return pending;
    }

    private int[] lastDirectoryForces(int crashPoint) {
        int[] last = new int[directories.size()];
        Arrays.fill(last, -1);
        for (int i = 0; i < crashPoint; i++) {
            if (ops.get(i) instanceof ForcedDirectory f) {
                last[f.directory()] = i;
            }
        }
        return last;
    }

    /** The directory of a directory operation, or -1 for other operations. */
    private static int directoryOf(Op op) {
        if (op instanceof Created c) {
            return c.directory();
        } else if (op instanceof Renamed r) {
            return r.directory();
        } else if (op instanceof Deleted x) {
            return x.directory();
        }
        return -1;
    }

    /**
     * Gives {@code check} every state a crash after the first {@code crashPoint} operations can leave: every subset of
     * the pending directory operations when there are at most {@code exhaustiveUpTo} of them, otherwise every subset
     * that keeps at most {@code bound} of them or drops at most {@code bound}; and for each, every combination of the
     * four outcomes of the unforced writes of each file left under a name whose content matters (bounded likewise:
     * at most {@code bound} files not getting all their writes, when there are many). Returns how many states it
     * gave.
     */
    int crashStates(int crashPoint, int exhaustiveUpTo, int bound, Consumer<CrashState> check) {
        List<Integer> pending = pendingNamespace(crashPoint);
        int[] lastDirectoryForce = lastDirectoryForces(crashPoint);
        Map<Integer, Integer> lastForce = new HashMap<>();
        for (int i = 0; i < crashPoint; i++) {
            if (ops.get(i) instanceof Forced f) {
                lastForce.put(f.inode(), i);
            }
        }
        int count = 0;
        // The same file and outcome give the same bytes (the same array) in every state of this crash point.
        Map<Long, byte[]> contents = new HashMap<>();
        for (boolean[] kept : subsets(pending.size(), exhaustiveUpTo, bound)) {
            List<Map<String, Integer>> names = new ArrayList<>();
            baselineNames.forEach(n -> names.add(new HashMap<>(n)));
            int p = 0;
            for (int i = 0; i < crashPoint; i++) {
                Op op = ops.get(i);
                int d = directoryOf(op);
                if (d < 0) {
                    continue;
                }
                boolean applies = i <= lastDirectoryForce[d] || kept[p++];
                if (applies) {
                    apply(names.get(d), op);
                }
            }
            // The files left under a name whose content matters, and which of them have writes that were not forced.
            List<Integer> unsettled = new ArrayList<>();
            for (Map<String, Integer> directory : names) {
                directory.forEach((name, inode) -> {
                    if (!scratch.test(name) && !unsettled.contains(inode)
                            && hasUnforcedWrites(inode, crashPoint, lastForce)) {
                        unsettled.add(inode);
                    }
                });
            }
            for (int[] outcomes : outcomes(unsettled.size(), exhaustiveUpTo, bound)) {
                List<Map<String, byte[]>> files = new ArrayList<>();
                for (Map<String, Integer> directory : names) {
                    Map<String, byte[]> state = new HashMap<>();
                    for (Map.Entry<String, Integer> entry : directory.entrySet()) {
                        int inode = entry.getValue();
                        int index = unsettled.indexOf(inode);
                        int outcome = index < 0 ? 0 : outcomes[index];
                        state.put(entry.getKey(), contents.computeIfAbsent(4L * inode + outcome,
                                n -> content(inode, crashPoint, lastForce.getOrDefault(inode, -1), outcome)));
                    }
                    files.add(state);
                }
                check.accept(new CrashState(crashPoint, files));
                count++;
            }
        }
        return count;
    }

    private static void apply(Map<String, Integer> names, Op op) {
        if (op instanceof Created c) {
            names.put(c.name(), c.inode());
        } else if (op instanceof Renamed r) {
            names.remove(r.from(), r.inode());
            names.put(r.to(), r.inode());
        } else if (op instanceof Deleted x) {
            names.remove(x.name(), x.inode());
        } else {
            throw new AssertionError(op);
        }
    }

    private boolean hasUnforcedWrites(int inode, int crashPoint, Map<Integer, Integer> lastForce) {
        int forced = lastForce.getOrDefault(inode, -1);
        for (int i = forced + 1; i < crashPoint; i++) {
            if (ops.get(i) instanceof Wrote w && w.inode() == inode) {
                return true;
            }
        }
        return false;
    }

    /**
     * The content of a file after a crash: its forced writes, then its unforced ones as {@code outcome} says: 0 all of
     * them, 1 none, 2 the first half of them, 3 zeros where they went.
     */
    private byte[] content(int inode, int crashPoint, int forced, int outcome) {
        byte[] content = baselineContent.getOrDefault(inode, new byte[0]);
        List<Wrote> unforced = new ArrayList<>();
        for (int i = 0; i < crashPoint; i++) {
            if (ops.get(i) instanceof Wrote w && w.inode() == inode) {
                if (i < forced) {
                    content = write(content, w.position(), w.bytes());
                } else {
                    unforced.add(w);
                }
            }
        }
        int applied = switch (outcome) {
            case 1 -> 0;
            case 2 -> unforced.size() / 2;
            default -> unforced.size();
        };
        for (Wrote w : unforced.subList(0, applied)) {
            content = write(content, w.position(), outcome == 3 ? new byte[w.bytes().length] : w.bytes());
        }
        return content;
    }

    private static byte[] write(byte[] content, long position, byte[] bytes) {
        int end = (int) position + bytes.length;
        byte[] result = end > content.length ? Arrays.copyOf(content, end) : content.clone();
        System.arraycopy(bytes, 0, result, (int) position, bytes.length);
        return result;
    }

    /**
     * The outcomes (0 to 3, see {@link #content}) of {@code n} files' unforced writes: every combination when
     * {@code 2n} is at most {@code exhaustiveUpTo}, otherwise those where at most {@code bound} files do not get all
     * their writes.
     */
    private static List<int[]> outcomes(int n, int exhaustiveUpTo, int bound) {
        List<int[]> all = new ArrayList<>();
        if (2 * n <= exhaustiveUpTo) {
            for (int variant = 0; variant < 1 << (2 * n); variant++) {
                int[] outcomes = new int[n];
                for (int i = 0; i < n; i++) {
                    outcomes[i] = variant >> (2 * i) & 3;
                }
                all.add(outcomes);
            }
            return all;
        }
        for (int size = 0; size <= Math.min(bound, n); size++) {
            combinations(n, size, chosen -> {
                for (int variant = 0; variant < (int) Math.pow(3, chosen.length); variant++) {
                    int[] outcomes = new int[n];
                    int rest = variant;
                    for (int i : chosen) {
                        outcomes[i] = 1 + rest % 3;
                        rest /= 3;
                    }
                    all.add(outcomes);
                }
            });
        }
        return all;
    }

    /**
     * For {@code n} pending operations, which of them reached the device: every subset when {@code n} is at most
     * {@code exhaustiveUpTo}, otherwise those keeping at most {@code bound} operations or dropping at most
     * {@code bound}.
     */
    private static List<boolean[]> subsets(int n, int exhaustiveUpTo, int bound) {
        List<boolean[]> subsets = new ArrayList<>();
        if (n <= exhaustiveUpTo) {
            for (int mask = 0; mask < (1 << n); mask++) {
                boolean[] kept = new boolean[n];
                for (int i = 0; i < n; i++) {
                    kept[i] = (mask >> i & 1) != 0;
                }
                subsets.add(kept);
            }
            return subsets;
        }
        for (int size = 0; size <= bound; size++) {
            for (boolean dropped : new boolean[] {false, true}) {
                combinations(n, size, chosen -> {
                    boolean[] kept = new boolean[n];
                    Arrays.fill(kept, dropped);
                    for (int i : chosen) {
                        kept[i] = !dropped;
                    }
                    subsets.add(kept);
                });
            }
        }
        return subsets;
    }

    private static void combinations(int n, int size, Consumer<int[]> each) {
        int[] chosen = new int[size];
        combinations(n, size, 0, 0, chosen, each);
    }

    private static void combinations(int n, int size, int from, int depth, int[] chosen, Consumer<int[]> each) {
        if (depth == size) {
            each.accept(chosen.clone());
            return;
        }
        for (int i = from; i <= n - (size - depth); i++) {
            chosen[depth] = i;
            combinations(n, size, i + 1, depth + 1, chosen, each);
        }
    }
}
