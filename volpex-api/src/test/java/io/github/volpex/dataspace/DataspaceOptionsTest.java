package io.github.volpex.dataspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class DataspaceOptionsTest {

    @Test
    void defaults_are_documented_values() {
        DataspaceOptions options = DataspaceOptions.defaults();
        assertEquals(1024, options.readLogCapacity());
        assertTrue(options.readLogBudgetBytes().isEmpty());
        assertEquals(1024, options.maxTagLength());
        assertEquals(64 << 20, options.maxDataBytes());
        assertEquals(options, DataspaceOptions.builder().build());
        assertEquals("DataspaceOptions[readLogCapacity=1024, readLogBudgetBytes=none, maxTagLength=1024, "
                + "maxDataBytes=67108864]", options.toString());
    }

    @Test
    void out_of_range_settings_name_the_parameter_and_value() {
        DataspaceOptions.Builder builder = DataspaceOptions.builder();
        assertEquals("readLogCapacity must be >= 1: 0",
                assertThrows(IllegalArgumentException.class, () -> builder.readLogCapacity(0)).getMessage());
        assertEquals("readLogBudgetBytes must be >= 0: -1",
                assertThrows(IllegalArgumentException.class, () -> builder.readLogBudgetBytes(-1)).getMessage());
        assertEquals("maxTagLength must be >= 1: -3",
                assertThrows(IllegalArgumentException.class, () -> builder.maxTagLength(-3)).getMessage());
        assertEquals("maxDataBytes must be >= 0: -1",
                assertThrows(IllegalArgumentException.class, () -> builder.maxDataBytes(-1)).getMessage());
    }

    @Test
    void the_budget_can_be_removed_again() {
        DataspaceOptions budgeted = DataspaceOptions.builder().readLogBudgetBytes(10).build();
        assertEquals(10, budgeted.readLogBudgetBytes().orElseThrow());
        DataspaceOptions unbudgeted = budgeted.toBuilder().noReadLogBudget().build();
        assertTrue(unbudgeted.readLogBudgetBytes().isEmpty());
        assertNotEquals(budgeted, unbudgeted);
        assertEquals(DataspaceOptions.defaults(), unbudgeted);
        assertEquals(DataspaceOptions.defaults().hashCode(), unbudgeted.hashCode());
    }

    @Property
    void every_valid_combination_is_kept_as_given_and_survives_toBuilder(
            @ForAll @IntRange(min = 1) int capacity,
            @ForAll @LongRange(min = 0) long budget,
            @ForAll @IntRange(min = 1) int tag,
            @ForAll @IntRange(min = 0) int data) {
        DataspaceOptions options = DataspaceOptions.builder().readLogCapacity(capacity).readLogBudgetBytes(budget)
                .maxTagLength(tag).maxDataBytes(data).build();
        assertEquals(capacity, options.readLogCapacity());
        assertEquals(budget, options.readLogBudgetBytes().orElseThrow());
        assertEquals(tag, options.maxTagLength());
        assertEquals(data, options.maxDataBytes());
        assertEquals(options, options.toBuilder().build());
    }

    @Test
    void tags_and_data_are_checked_against_the_limits_at_the_bounds() {
        DataspaceOptions options = DataspaceOptions.builder().maxTagLength(3).maxDataBytes(2).build();
        assertEquals("abc", options.checkTag("abc"));
        assertEquals("tag length must be <= 3 chars: 4",
                assertThrows(IllegalArgumentException.class, () -> options.checkTag("abcd")).getMessage());
        assertEquals("tag must not be empty",
                assertThrows(IllegalArgumentException.class, () -> options.checkTag("")).getMessage());
        assertEquals("tag", assertThrows(NullPointerException.class, () -> options.checkTag(null)).getMessage());
        byte[] two = new byte[2];
        assertTrue(two == options.checkData(two), "checked in place, not copied");
        assertEquals(0, options.checkData(new byte[0]).length);
        assertEquals("data length must be <= 2 bytes: 3",
                assertThrows(IllegalArgumentException.class, () -> options.checkData(new byte[3])).getMessage());
        assertEquals("data", assertThrows(NullPointerException.class, () -> options.checkData(null)).getMessage());
    }

    /** The deprecated delegates to the request checks keep their contract until they are removed. */
    @Test
    @SuppressWarnings("removal")
    void process_ids_and_timeouts_are_checked_at_the_bounds() {
        assertEquals(0, DataspaceOptions.checkProcessId(0, 3));
        assertEquals(2, DataspaceOptions.checkProcessId(2, 3));
        assertEquals("processId must be in [0, 2]: 3", assertThrows(IllegalArgumentException.class,
                () -> DataspaceOptions.checkProcessId(3, 3)).getMessage());
        assertEquals("processId must be in [0, 2]: -1", assertThrows(IllegalArgumentException.class,
                () -> DataspaceOptions.checkProcessId(-1, 3)).getMessage());

        assertEquals(Duration.ZERO, DataspaceOptions.checkTimeout(Duration.ZERO));
        Duration longest = Duration.ofSeconds(DataspaceOptions.UNBOUNDED_TIMEOUT_SECONDS - 1, 999_999_999);
        assertEquals(longest, DataspaceOptions.checkTimeout(longest));
        assertNull(DataspaceOptions.checkTimeout(Duration.ofSeconds(DataspaceOptions.UNBOUNDED_TIMEOUT_SECONDS)));
        assertNull(DataspaceOptions.checkTimeout(Duration.ofSeconds(Long.MAX_VALUE)));
        assertEquals("timeout must be >= 0: PT-0.001S", assertThrows(IllegalArgumentException.class,
                () -> DataspaceOptions.checkTimeout(Duration.ofMillis(-1))).getMessage());
        assertEquals("timeout", assertThrows(NullPointerException.class,
                () -> DataspaceOptions.checkTimeout(null)).getMessage());
    }
}
