package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The child process of {@link CrashRecoveryTest}: commits checkpoint after checkpoint of one job to directory
 * repositories until it is killed, printing {@code committed <n>} after each commit that returned. Checkpoint
 * {@code n}'s bytes are {@link #checkpoint(long)}, so the parent can check any recovered one.
 */
public final class CrashingWriter {

    static final String JOB = "crash";

    private CrashingWriter() {
    }

    /** The bytes of checkpoint {@code n}: 8 to 200 KiB, derived from {@code n} alone. */
    static byte[] checkpoint(long n) {
        SplittableRandom random = new SplittableRandom(n * 0x9E3779B97F4A7C15L);
        byte[] data = new byte[8 * 1024 + random.nextInt(192 * 1024)];
        random.nextBytes(data);
        data[0] = (byte) n;
        return data;
    }

    static CheckpointStore store(boolean perennial, List<Path> directories) throws IOException {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < directories.size(); i++) {
            repositories.add(FragmentRepository.directory("d" + i, directories.get(i), false));
        }
        CheckpointStore.Builder builder = perennial
                ? CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories)
                : CheckpointStore.ephemeral(repositories);
        return builder.segmentBytes(16 * 1024).build();
    }

    /**
     * Runs the writer.
     *
     * @param args {@code perennial|ephemeral}, the number of the first checkpoint, then the directories
     * @throws IOException if a directory cannot be opened
     */
    public static void main(String[] args) throws IOException {
        boolean perennial = args[0].equals("perennial");
        long next = Long.parseLong(args[1]);
        List<Path> directories = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            directories.add(Path.of(args[i]));
        }
        CheckpointStore store = store(perennial, directories);
        System.out.println("ready");
        System.out.flush();
        while (true) {
            store.commit(JOB, checkpoint(next));
            System.out.println("committed " + next);
            System.out.flush();
            next++;
        }
    }
}
