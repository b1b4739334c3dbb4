package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class StoreKeysTest {

    @Property(tries = 300)
    void parses_what_it_writes(
            @ForAll @AlphaChars @NumericChars @StringLength(min = 1, max = 64) String job,
            @ForAll @LongRange(min = 0) long epoch, @ForAll @LongRange(min = 0) long sequence,
            @ForAll long commitId, @ForAll @IntRange(min = -2, max = 254) int fragment) {
        CheckpointId id = new CheckpointId(epoch, sequence, commitId);
        String key = fragment == -2 ? StoreKeys.markerKey(job, id)
                : fragment == -1 ? StoreKeys.indexKey(job, id) : StoreKeys.fragmentKey(job, id, fragment);
        assertTrue(FragmentRepository.isValidKey(key), key);
        StoreKeys.Kind kind = fragment == -2 ? StoreKeys.Kind.MARKER
                : fragment == -1 ? StoreKeys.Kind.INDEX : StoreKeys.Kind.FRAGMENT;
        assertEquals(new StoreKeys.Parsed(job, id, kind, Math.max(-1, fragment)), StoreKeys.parse(key));
        assertTrue(key.startsWith(StoreKeys.checkpointPrefix(job, id)));
        assertTrue(key.startsWith(StoreKeys.jobPrefix(job)));
    }

    @Test
    void the_longest_key_fits_the_repository_limit() {
        CheckpointId id = new CheckpointId(Long.MAX_VALUE, Long.MAX_VALUE, -1);
        String key = StoreKeys.fragmentKey("j".repeat(64), id, 254);
        assertEquals(FragmentRepository.MAX_KEY_LENGTH, key.length());
        assertEquals(id, StoreKeys.parse(key).id());
    }

    @Test
    void orders_checkpoints_by_epoch_then_sequence_then_commit_id() {
        CheckpointId early = new CheckpointId(5, 900, 7);
        CheckpointId later = new CheckpointId(6, 0, 1);
        assertTrue(later.isNewerThan(early), "a later epoch wins whatever the sequence");
        assertTrue(new CheckpointId(5, 901, 0).isNewerThan(early));
        assertTrue(new CheckpointId(5, 900, -1).isNewerThan(early), "commit ids compare unsigned");
        assertEquals(0, early.compareTo(new CheckpointId(5, 900, 7)));
    }

    @Test
    void ignores_keys_it_did_not_write() {
        String id = "0000000000000001.0000000000000002.0123456789abcdef";
        for (String key : new String[] {"job", "job." + id, "job." + id + ".g1", "job." + id + ".f255",
                "job." + id + ".f01", "job." + id + ".f", "job." + id + ".idx.x", "j.o.b." + id + ".f1",
                "job.000000000000001.0000000000000002.0123456789abcdef.f1",
                "job.0000000000000001.0000000000000002.0123456789ABCDEF.f1",
                "job.8000000000000000.0000000000000002.0123456789abcdef.f1",
                "job.0000000000000001.ffffffffffffffff.0123456789abcdef.ok",
                "job.0000000000000001.0000000000000002.012345678ghijklm.ok", "job.1.0123456789abcdef.f1"}) {
            assertNull(StoreKeys.parse(key), key);
        }
    }
}
