package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
            @ForAll @LongRange(min = 0) long sequence, @ForAll long commitId,
            @ForAll @IntRange(min = -1, max = 254) int fragment) {
        String key = fragment < 0 ? StoreKeys.indexKey(job, sequence, commitId)
                : StoreKeys.fragmentKey(job, sequence, commitId, fragment);
        assertTrue(FragmentRepository.isValidKey(key), key);
        assertEquals(new StoreKeys.Parsed(job, sequence, commitId, fragment), StoreKeys.parse(key));
        assertTrue(key.startsWith(StoreKeys.jobPrefix(job)));
    }

    @Test
    void ignores_keys_it_did_not_write() {
        for (String key : new String[] {"job", "job.1.0123456789abcdef", "job.1.0123456789abcdef.g1",
                "job.-1.0123456789abcdef.f1", "job.01.0123456789abcdef.f1", "job.1.0123456789ABCDEF.f1",
                "job.1.123456789abcdef.f1", "job.1.0123456789abcdef.f255", "job.1.0123456789abcdef.f01",
                "job.1.0123456789abcdef.f", "j.o.b.1.0123456789abcdef.f1", "job.1.0123456789abcdef.idx.x",
                "job.99999999999999999999.0123456789abcdef.f1"}) {
            assertNull(StoreKeys.parse(key), key);
        }
    }
}
