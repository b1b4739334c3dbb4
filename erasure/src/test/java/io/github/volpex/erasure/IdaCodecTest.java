package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class IdaCodecTest {

    @Test
    void limits_are_enforced_with_clear_messages() {
        assertEquals("m must be in [1, 255]: 0",
                assertThrows(IllegalArgumentException.class, () -> IdaCodec.systematic(0, 3)).getMessage());
        assertEquals("k must be in [0, 5] for m = 250: 6",
                assertThrows(IllegalArgumentException.class, () -> IdaCodec.systematic(250, 6)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> IdaCodec.systematic(6, -1));
        assertEquals(255, IdaCodec.systematic(1, 254).n());
    }

    @Test
    void fragment_payload_is_the_ceiling_of_length_over_m() {
        IdaCodec codec = IdaCodec.systematic(6, 3);
        assertEquals(0, codec.fragmentPayloadLength(0));
        assertEquals(1, codec.fragmentPayloadLength(1));
        assertEquals(1, codec.fragmentPayloadLength(6));
        assertEquals(2, codec.fragmentPayloadLength(7));
        assertThrows(IllegalArgumentException.class, () -> codec.fragmentPayloadLength(-1));
    }

    @Property
    void m_fragments_always_hold_the_data(
            @ForAll @IntRange(min = 1, max = 255) int m,
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE / 2) long length) {
        long payload = IdaCodec.systematic(m, 0).fragmentPayloadLength(length);
        assertEquals(true, payload * m >= length && (payload - 1) * m < length || payload == 0 && length == 0);
    }
}
