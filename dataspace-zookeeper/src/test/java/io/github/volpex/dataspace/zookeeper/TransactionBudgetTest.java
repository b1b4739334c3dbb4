package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceOptions;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/**
 * The transaction budget's arithmetic and the names that carry a namespace's id: the worst-case transaction for the
 * default settings, the exact boundary of the options accepted, and guard paths and blob keys as the rest of the
 * package parses them.
 */
class TransactionBudgetTest {

    private static final int JUTE = ZooKeeperDataspace.Builder.DEFAULT_JUTE_MAX_BUFFER;
    private static final int INLINE = ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES;

    @Test
    void the_budget_keeps_a_margin_and_counts_each_operation_with_its_path() {
        assertEquals(1_048_575 - 16_384, TransactionBudget.limit(JUTE));
        assertEquals("/job/p/0".length() + 100 + 32, TransactionBudget.opBytes("/job/p/0", 100));
    }

    @Test
    void the_worst_transaction_at_the_defaults_allows_1923_processes_in_a_short_namespace() {
        // Per waiter: 2 × (4 + 32) + 64 + 48 + 200 + 48 + 2 × 32 + 13 = 509 bytes; fixed: 16,384 + 8 × 4,096 + 4,096
        // + 4 + 22 + 32 = 53,306 bytes; (1,032,191 − 53,306) / 509 = 1,923.
        assertEquals(509, TransactionBudget.perWaiterBytes("/job"));
        assertEquals(53_306, TransactionBudget.fixedBytes(INLINE, "/job"));
        assertEquals(1923, TransactionBudget.mostProcesses(JUTE, INLINE, "/job"));
        assertEquals(1923L * 509 + 53_306, TransactionBudget.worstCaseBytes(1923, INLINE, "/job"));
    }

    @Property(tries = 50)
    void the_processes_accepted_are_exactly_those_whose_worst_transaction_fits(
            @ForAll @IntRange(min = 1, max = 60) int depth, @ForAll @IntRange(min = 0, max = 200_000) int inline) {
        String namespace = "/n".repeat(depth);
        int most = (int) TransactionBudget.mostProcesses(JUTE, inline, namespace);
        DataspaceOptions options = DataspaceOptions.defaults();
        assertTrue(TransactionBudget.worstCaseBytes(most, inline, namespace) <= TransactionBudget.limit(JUTE));
        assertTrue(TransactionBudget.worstCaseBytes(most + 1, inline, namespace) > TransactionBudget.limit(JUTE));
        assertDoesNotThrow(() -> TransactionBudget.check(most, options, JUTE, inline, namespace));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> TransactionBudget.check(most + 1, options, JUTE, inline, namespace));
        assertEquals("processCount must be <= " + most + " for a ZooKeeper dataspace at " + namespace
                + " with jute.maxbuffer " + JUTE + " (a put that serves every process's waiting read is one "
                + "transaction): " + (most + 1), refused.getMessage());
    }

    @Test
    void the_read_log_capacity_and_the_tag_length_are_bounded() {
        DataspaceOptions most = DataspaceOptions.builder().readLogCapacity(65_536).build();
        assertDoesNotThrow(() -> TransactionBudget.check(4, most, JUTE, INLINE, "/job"));
        DataspaceOptions over = DataspaceOptions.builder().readLogCapacity(65_537).build();
        assertEquals("options.readLogCapacity must be <= 65536 for a ZooKeeper dataspace (each retained outcome is "
                + "a znode): 65537", assertThrows(IllegalArgumentException.class,
                        () -> TransactionBudget.check(4, over, JUTE, INLINE, "/job")).getMessage());
        int longest = (TransactionBudget.limit(262_144) - 4 - 1024) / 2;
        DataspaceOptions fits = DataspaceOptions.builder().maxTagLength(longest).build();
        assertDoesNotThrow(() -> TransactionBudget.check(1, fits, 262_144, 0, "/job"));
        DataspaceOptions tooLong = DataspaceOptions.builder().maxTagLength(longest + 1).build();
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> TransactionBudget.check(1, tooLong, 262_144, 0, "/job")).getMessage()
                .startsWith("options.maxTagLength must be <= " + longest + " "));
    }

    @Test
    void guards_are_named_by_the_namespace_id_and_two_hex_digits() {
        NamespaceKeys keys = new NamespaceKeys(new Layout("/job"), 0x1fL);
        assertEquals("/job/g/1f-", keys.guardPrefix());
        assertEquals("/job/g/1f-00", keys.guardPath(0));
        assertEquals("/job/g/1f-3f", keys.guardPath(NamespaceKeys.GUARDS - 1));
        Set<String> paths = new HashSet<>();
        for (int k = 0; k < NamespaceKeys.GUARDS; k++) {
            paths.add(keys.guardPath(k));
        }
        assertEquals(NamespaceKeys.GUARDS, paths.size());
        assertEquals("/job/g/ffffffffffffffff-", new NamespaceKeys(new Layout("/job"), -1L).guardPrefix(),
                "a negative id is its unsigned hex");
    }

    @Property(tries = 200)
    void every_tag_name_has_one_guard_of_the_namespace(@ForAll @StringLength(max = 40) String name) {
        int guard = NamespaceKeys.guardOf(name);
        assertTrue(guard >= 0 && guard < NamespaceKeys.GUARDS, name + ": " + guard);
        assertEquals(Math.floorMod(name.hashCode(), 64), guard);
        NamespaceKeys keys = new NamespaceKeys(new Layout("/job"), 42);
        assertEquals(keys.guardPath(guard), keys.guardPath(name));
    }

    @Property(tries = 100)
    void blob_keys_carry_the_namespace_id_and_parse_back_to_their_value(@ForAll long namespaceId,
            @ForAll byte[] value, @ForAll long incarnation) {
        NamespaceKeys keys = new NamespaceKeys(new Layout("/job"), namespaceId);
        String sha = HexFormat.of().formatHex(TagNames.sha256().digest(value));
        String key = keys.blobKey(sha, incarnation);
        assertTrue(key.startsWith(keys.blobPrefix()), key);
        assertEquals(sha, Layout.shaOfKey(key), "the garbage collector finds the value a key names");
        assertEquals(Integer.parseInt(sha.substring(0, 2), 16), Layout.blobBucketOf(key));
        assertNull(Layout.shaOfKey(keys.blobPrefix() + sha), "a key without its incarnation is not one of ours");
    }
}
