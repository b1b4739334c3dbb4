package io.github.volpex.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.ByteArrayOutputStream;
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
    private static final class LastPartLost extends InMemoryUnderneath {
        LastPartLost() {
            super("lossy");
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            int whole = content.length <= PART_BYTES ? content.length : content.length / PART_BYTES * PART_BYTES;
            store.put(key, Arrays.copyOf(content, whole));
        }
    }

    /** An adapter over an in-memory repository: reads, deletes and listings passed on; writes the subclass's own. */
    private abstract static class InMemoryUnderneath implements FragmentRepository {
        final FragmentRepository store;

        InMemoryUnderneath(String id) {
            store = FragmentRepository.inMemory(id);
        }

        @Override
        public String id() {
            return store.id();
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

    /**
     * An in-memory repository that takes a promised length as a hint only: its {@code create(key, lengthBytes)} is
     * {@code create(key)}, or, when {@code eager}, an output that publishes the value as soon as the promised bytes
     * are all written, before any commit (as an upload that sends its last byte at once would).
     */
    private static final class PromiseIgnored extends InMemoryUnderneath {
        private final boolean eager;

        PromiseIgnored(boolean eager) {
            super("hint");
            this.eager = eager;
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            store.put(key, content);
        }

        @Override
        public FragmentOutput create(String key, long lengthBytes) throws IOException {
            if (!eager) {
                return store.create(key);
            }
            return new FragmentOutput() {
                private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    bytes.write(b, off, len);
                    if (bytes.size() == lengthBytes) {
                        store.put(key, bytes.toByteArray());
                    }
                }

                @Override
                protected void publish() throws IOException {
                    store.put(key, bytes.toByteArray());
                }

                @Override
                protected void discard() {
                    bytes.reset();
                }
            };
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
    void an_adapter_that_does_not_hold_writers_to_their_promise_fails_the_contract() {
        assertThrows(AssertionError.class,
                new Contract(new PromiseIgnored(false))::a_write_past_its_promised_length_fails_and_leaves_nothing);
        Contract ignoring = new Contract(new PromiseIgnored(false));
        assertThrows(AssertionError.class, ignoring::a_commit_short_of_its_promised_length_fails_and_leaves_nothing);
    }

    @Test
    void an_adapter_that_publishes_once_every_promised_byte_is_written_fails_the_contract() {
        assertThrows(AssertionError.class,
                new Contract(new PromiseIgnored(true))::an_abandoned_write_of_promised_length_leaves_nothing);
        assertThrows(AssertionError.class,
                new Contract(new PromiseIgnored(true))::a_write_of_promised_length_is_invisible_until_committed);
    }

    @Test
    void an_adapter_with_its_own_message_for_invalid_keys_passes_the_contract() throws IOException {
        new Contract(new OwnWords()).rejects_invalid_keys_and_nulls();
    }
}
