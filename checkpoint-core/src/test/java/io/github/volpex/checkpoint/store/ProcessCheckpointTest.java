package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The process checkpoint: its format byte by byte, its round trips, and the store's one-call commit and recovery. */
class ProcessCheckpointTest {

    @Property
    void parse_gives_back_what_to_bytes_wrote(@ForAll @LongRange(min = 0) long requestNumber,
                                              @ForAll @Size(max = 300) byte[] state) {
        ProcessCheckpoint checkpoint = ProcessCheckpoint.of(requestNumber, state);
        byte[] bytes = checkpoint.toBytes();
        assertEquals(ProcessCheckpoint.HEADER_BYTES + state.length, bytes.length);
        ProcessCheckpoint back = ProcessCheckpoint.parse(bytes);
        assertEquals(checkpoint, back);
        assertEquals(requestNumber, back.requestNumber());
        assertArrayEquals(state, back.state());
        assertEquals(state.length, back.stateLength());
        assertEquals(checkpoint.hashCode(), back.hashCode());
    }

    @Test
    void the_format_is_magic_format_request_number_then_the_state() {
        byte[] bytes = ProcessCheckpoint.of(0x0102030405060708L, new byte[] {9, 10}).toBytes();
        assertEquals("56505043" + "01" + "0102030405060708" + "090a", HexFormat.of().formatHex(bytes));
    }

    @Test
    void the_state_is_copied_in_and_out() {
        byte[] state = {1, 2, 3};
        ProcessCheckpoint checkpoint = ProcessCheckpoint.of(5, state);
        state[0] = 9;
        checkpoint.state()[1] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, checkpoint.state());
        assertNotEquals(checkpoint, ProcessCheckpoint.of(6, new byte[] {1, 2, 3}));
        assertNotEquals(checkpoint, ProcessCheckpoint.of(5, new byte[] {1, 2}));
        assertEquals("ProcessCheckpoint[request 5, 3 bytes of state]", checkpoint.toString());
    }

    @Test
    void bad_input_is_refused_with_what_was_found() {
        assertEquals("requestNumber must be >= 0: -1", assertThrows(IllegalArgumentException.class,
                () -> ProcessCheckpoint.of(-1, new byte[0])).getMessage());
        assertEquals("state", assertThrows(NullPointerException.class, () -> ProcessCheckpoint.of(0, null))
                .getMessage());
        assertEquals("not a process checkpoint: 12 bytes, fewer than the 13 of its header (magic VPPC, format, "
                + "request number)", assertThrows(IllegalArgumentException.class,
                        () -> ProcessCheckpoint.parse(new byte[12])).getMessage());
        assertEquals("not a process checkpoint: it starts with 0x00000000, not the magic 0x56505043 (VPPC)",
                assertThrows(IllegalArgumentException.class, () -> ProcessCheckpoint.parse(new byte[13]))
                        .getMessage());
        byte[] format2 = ProcessCheckpoint.of(1, new byte[0]).toBytes();
        format2[4] = 2;
        assertEquals("process checkpoint of format 2: this version reads format 1 only",
                assertThrows(IllegalArgumentException.class, () -> ProcessCheckpoint.parse(format2)).getMessage());
        byte[] negative = ByteBuffer.allocate(13).putInt(ProcessCheckpoint.MAGIC).put((byte) 1).putLong(-3).array();
        assertEquals("process checkpoint with a negative request number: -3",
                assertThrows(IllegalArgumentException.class, () -> ProcessCheckpoint.parse(negative)).getMessage());
    }

    @Test
    void the_store_commits_and_recovers_state_and_request_number_as_one() {
        List<FragmentRepository> repositories = Stores.inMemory(9);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
                .random(new SplittableRandom(3)).segmentBytes(1000).build();
        assertEquals(Optional.empty(), store.recoverProcess("p-1"));
        SplittableRandom random = new SplittableRandom(7);
        ProcessCheckpoint last = null;
        for (int n = 0; n < 5; n++) {
            last = ProcessCheckpoint.of(random.nextLong(1 << 40), Stores.data(n, random.nextInt(5000)));
            FragmentIndex index = store.commit("p-1", last);
            assertEquals(ProcessCheckpoint.HEADER_BYTES + last.stateLength(), index.checkpointBytes());
            assertEquals(last, store.recoverProcess("p-1").orElseThrow());
        }
        // A new store on the same repositories (a host that restarts the process) gets both back.
        CheckpointStore restarted = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories).build();
        assertEquals(last, restarted.recoverProcess("p-1").orElseThrow());
        assertEquals(last, ProcessCheckpoint.parse(restarted.recover("p-1").orElseThrow().toByteArray()));
    }

    @Test
    void a_job_of_plain_checkpoints_is_not_taken_for_a_process_checkpoint() {
        CheckpointStore store = CheckpointStore.ephemeral(Stores.inMemory(2)).build();
        FragmentIndex plain = store.commit("plain", new byte[] {1, 2, 3});
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> store.recoverProcess("plain"));
        assertEquals("the newest checkpoint of plain (#" + plain.sequence() + ", epoch " + plain.epoch()
                + ") cannot be read: not a process checkpoint: 3 bytes, fewer than the 13 of its header "
                + "(magic VPPC, format, request number)", refused.getMessage());
        assertThrows(NullPointerException.class, () -> store.commit("plain", (ProcessCheckpoint) null));
        assertTrue(store.recoverProcess("other").isEmpty());
    }

    @Test
    void to_bytes_into_an_array_uses_it_only_when_its_length_is_exact() {
        ProcessCheckpoint checkpoint = ProcessCheckpoint.of(42, Stores.data(9, 100));
        byte[] expected = checkpoint.toBytes();
        for (int length : new int[] {expected.length - 1, expected.length, expected.length + 1}) {
            byte[] into = new byte[length];
            java.util.Arrays.fill(into, (byte) 0x5a);
            byte[] written = checkpoint.toBytes(into);
            assertArrayEquals(expected, written, "length " + length);
            assertEquals(length == expected.length, written == into, "length " + length);
        }
    }

    @Test
    void process_checkpoints_of_changing_lengths_committed_in_the_background_recover_each() {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try (CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 1), Stores.inMemory(4))
                .executor(pool).build()) {
            long request = 0;
            for (int length : new int[] {200, 90, 200, 200, 0, 90}) {
                ProcessCheckpoint checkpoint = ProcessCheckpoint.of(++request, Stores.data(request, length));
                store.commitAsync("job", checkpoint).toCompletableFuture().join();
                assertEquals(checkpoint, store.recoverProcess("job").orElseThrow(), "length " + length);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
