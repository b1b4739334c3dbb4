package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A commit abandoned after its fragments were published cleans up what it wrote and nothing else: each repository is
 * asked to delete exactly the keys the commit tried to write there — the fragments placed on it, first or as
 * replacements, its index copy only where one was tried, its marker only where one was tried — counted delete by
 * delete, with random fragment writes failing (so that fragments move), index or marker writes failing (so that the
 * commit is abandoned), more repositories than fragments, full and differential stores, arrays and streams.
 */
class AbandonedAttemptCleanupTest {

    private static final String JOB = "job";

    /** Replays one seed: {@code -Dvolpex.cleanup.seed=<seed>}. */
    private static final String SEED_PROPERTY = "volpex.cleanup.seed";

    /** A repository that records the keys written to it and asked to be deleted, and fails the writes it is told. */
    private static final class Recording extends Stores.Forwarding {
        final Set<String> tried = ConcurrentHashMap.newKeySet();
        final List<String> deletes = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile java.util.function.Predicate<String> failing = key -> false;

        Recording(FragmentRepository delegate) {
            super(delegate);
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            tried.add(key);
            if (failing.test(key)) {
                throw new RepositoryUnavailableException(id(), "refused " + key, null);
            }
            super.put(key, content);
        }

        @Override
        public boolean delete(String key) throws IOException {
            deletes.add(key);
            return super.delete(key);
        }

        void reset() {
            tried.clear();
            deletes.clear();
        }
    }

    private static boolean is(String key, StoreKeys.Kind kind) {
        StoreKeys.Parsed parsed = StoreKeys.parse(key);
        return parsed != null && parsed.kind() == kind;
    }

    @Test
    void anAbandonedCommitDeletesOnlyWhatItWroteToEachRepository() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            for (int trial = 0; trial < 40; trial++) {
                int count = 5 + random.nextInt(4);
                List<Recording> hosts = new ArrayList<>();
                for (FragmentRepository r : Stores.inMemory(count)) {
                    hosts.add(new Recording(r));
                }
                CheckpointStore.Builder builder = CheckpointStore.perennial(IdaCodec.systematic(3, 2), hosts)
                        .segmentBytes(4096).random(new SplittableRandom(random.nextLong()));
                boolean differential = random.nextBoolean();
                if (differential) {
                    builder.differential(Chunking.fixed(Chunking.MIN_BLOCK_BYTES));
                }
                CheckpointStore store = builder.build();
                byte[] first = Stores.data(random.nextLong(), 20_000 + random.nextInt(20_000));
                CheckpointId kept = store.commit(JOB, first).checkpointId();
                byte[] next = first.clone();
                next[random.nextInt(next.length)] ^= 1;
                boolean stream = random.nextBoolean();
                StoreKeys.Kind refused = random.nextBoolean() ? StoreKeys.Kind.INDEX : StoreKeys.Kind.MARKER;
                String at = "trial " + trial + ", " + count + " repositories, " + (differential ? "differential"
                        : "full") + ", " + (stream ? "stream" : "array") + ", " + refused + " writes refused, seed "
                        + seed;
                for (Recording host : hosts) {
                    host.reset();
                    boolean fragmentsFail = random.nextInt(4) == 0;
                    host.failing = key -> is(key, refused) || fragmentsFail && is(key, StoreKeys.Kind.FRAGMENT);
                }
                assertThrows(CheckpointStoreException.class, () -> {
                    if (stream) {
                        store.commit(JOB, new ByteArrayInputStream(next));
                    } else {
                        store.commit(JOB, next);
                    }
                }, at);
                Map<String, Set<String>> tried = new TreeMap<>();
                Map<String, Set<String>> deleted = new TreeMap<>();
                int deletes = 0;
                for (Recording host : hosts) {
                    tried.put(host.id(), new TreeSet<>(host.tried));
                    deleted.put(host.id(), new TreeSet<>(host.deletes));
                    deletes += host.deletes.size();
                    assertEquals(new TreeSet<>(host.deletes).size(), host.deletes.size(),
                            "a key deleted twice on " + host.id() + ", " + at);
                }
                assertEquals(tried, deleted, "the keys deleted by repository, " + at);
                assertTrue(deletes > 0, at);
                // And what it tried to store is gone: only the first checkpoint is left.
                for (String key : Stores.everything(hosts)) {
                    StoreKeys.Parsed parsed = StoreKeys.parse(key.substring(key.indexOf('/') + 1));
                    assertEquals(kept, parsed == null ? null : parsed.id(), key + " left behind, " + at);
                }
                hosts.forEach(host -> host.failing = key -> false);
                assertArrayEquals(first, store.recover(JOB).orElseThrow().toByteArray(), at);
            }
        });
    }
}
