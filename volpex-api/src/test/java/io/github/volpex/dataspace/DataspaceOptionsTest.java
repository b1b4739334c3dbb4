package io.github.volpex.dataspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class DataspaceOptionsTest {

    @Test
    void defaults_are_valid() {
        DataspaceOptions options = DataspaceOptions.defaults();
        assertEquals(1024, options.readLogCapacity());
        assertEquals(64 << 20, options.maxDataBytes());
    }

    @Test
    void out_of_range_limits_name_the_parameter_and_value() {
        assertEquals("readLogCapacity must be >= 1: 0",
                assertThrows(IllegalArgumentException.class, () -> new DataspaceOptions(0, 1, 1)).getMessage());
        assertEquals("maxTagLength must be >= 1: -3",
                assertThrows(IllegalArgumentException.class, () -> new DataspaceOptions(1, -3, 1)).getMessage());
        assertEquals("maxDataBytes must be >= 0: -1",
                assertThrows(IllegalArgumentException.class, () -> new DataspaceOptions(1, 1, -1)).getMessage());
    }

    @Property
    void every_valid_combination_is_kept_as_given(
            @ForAll @IntRange(min = 1) int capacity,
            @ForAll @IntRange(min = 1) int tag,
            @ForAll @IntRange(min = 0) int data) {
        DataspaceOptions options = new DataspaceOptions(capacity, tag, data);
        assertEquals(capacity, options.readLogCapacity());
        assertEquals(tag, options.maxTagLength());
        assertEquals(data, options.maxDataBytes());
    }
}
