package io.github.volpex.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The repository contract against adapters with the defects it must catch, and one it must let pass: an adapter that
 * never uploads the last, partial part of a multipart value fails it; one that words its own message for an invalid
 * key passes it.
 */
class FragmentRepositoryContractCatchesTest {

    /** The usual part size of object stores' multipart uploads. */
    private static final int PART_BYTES = 8 << 20;

    /**
     * An in-memory repository that stores a value longer than 8 MiB as its whole 8 MiB parts only, dropping the last,
     * partial one (streamed writes reach it through the default {@code create}, which puts on commit).
     */
    private static final class LastPartLost implements FragmentRepository {
        private final FragmentRepository store = FragmentRepository.inMemory("lossy");

        @Override
        public String id() {
            return store.id();
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            int whole = content.length <= PART_BYTES ? content.length : content.length / PART_BYTES * PART_BYTES;
            store.put(key, Arrays.copyOf(content, whole));
        }

        @Override
        public Optional<byte[]> get(String key) throws IOException {
            return store.get(key);
        }

        @Override
        public boolean delete(String key) throws IOException {
            return store.delete(key);
        }

        @Override
        public List<String> list(String prefix) throws IOException {
            return store.list(prefix);
        }
    }

    /** An in-memory repository that rejects invalid keys with a message of its own, naming the key. */
    private static final class OwnWords implements FragmentRepository {
        private final FragmentRepository store = FragmentRepository.inMemory("own");

        private static String check(String key) {
            if (!FragmentRepository.isValidKey(key)) {
                throw new IllegalArgumentException("not a key this store takes: " + key);
            }
            return key;
        }

        @Override
        public String id() {
            return store.id();
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            store.put(check(key), content);
        }

        @Override
        public Optional<byte[]> get(String key) throws IOException {
            return store.get(check(key));
        }

        @Override
        public boolean delete(String key) throws IOException {
            return store.delete(check(key));
        }

        @Override
        public List<String> list(String prefix) throws IOException {
            return store.list(prefix);
        }

        @Override
        public FragmentOutput create(String key) throws IOException {
            return store.create(check(key));
        }

        @Override
        public Optional<InputStream> open(String key) throws IOException {
            return store.open(check(key));
        }
    }

    /** The contract against one adapter, its test methods called directly. */
    private static final class Contract extends FragmentRepositoryContract {
        private final FragmentRepository repository;

        Contract(FragmentRepository repository) {
            this.repository = repository;
        }

        @Override
        protected FragmentRepository newRepository(String id) {
            return repository;
        }
    }

    @Test
    void an_adapter_that_never_uploads_the_last_partial_part_fails_the_contract() throws IOException {
        Contract lossy = new Contract(new LastPartLost());
        assertThrows(AssertionError.class,
                lossy::stores_values_longer_than_the_usual_part_sizes_put_whole_and_streamed);
        // Below the part size it behaves, so the older tests could not tell.
        new Contract(new LastPartLost()).streams_values_of_several_mebibytes_both_ways();
    }

    @Test
    void an_adapter_with_its_own_message_for_invalid_keys_passes_the_contract() throws IOException {
        new Contract(new OwnWords()).rejects_invalid_keys_and_nulls();
    }
}
