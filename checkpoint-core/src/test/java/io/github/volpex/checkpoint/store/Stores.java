package io.github.volpex.checkpoint.store;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/** Fixtures for store tests. */
final class Stores {

    private Stores() {
    }

    static List<FragmentRepository> inMemory(int count) {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            repositories.add(FragmentRepository.inMemory("r" + i));
        }
        return repositories;
    }

    static byte[] data(long seed, int length) {
        byte[] data = new byte[length];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    /** A clock the test moves by hand. */
    static final class ManualClock implements InstantSource {
        private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-03-01T00:00:00Z"));

        @Override
        public Instant instant() {
            return now.get();
        }

        void advance(Duration d) {
            now.updateAndGet(t -> t.plus(d));
        }
    }

    /** Every key on every repository, as "repository/key". */
    static List<String> everything(List<? extends FragmentRepository> repositories) throws Exception {
        List<String> all = new ArrayList<>();
        for (FragmentRepository r : repositories) {
            for (String key : r.list("")) {
                all.add(r.id() + "/" + key);
            }
        }
        return all;
    }

    /** Flips one byte of a stored object. */
    static void corrupt(FragmentRepository repository, String key, int position) throws Exception {
        byte[] bytes = repository.get(key).orElseThrow();
        if (bytes.length == 0) {
            repository.put(key, new byte[] {1});
            return;
        }
        bytes[Math.floorMod(position, bytes.length)] ^= 0x5A;
        repository.put(key, bytes);
    }
}
