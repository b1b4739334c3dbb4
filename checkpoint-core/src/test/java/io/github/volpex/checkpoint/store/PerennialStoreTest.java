package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.Fragment;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.erasure.Layout;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Perennial mode: the store on the erasure module's information dispersal. */
class PerennialStoreTest {

    private static CheckpointStore store(IdaCodec codec, List<FragmentRepository> repositories, int segmentBytes) {
        return CheckpointStore.perennial(codec, repositories).random(new SplittableRandom(3))
                .placement(PlacementPolicy.inOrder()).segmentBytes(segmentBytes).build();
    }

    private static FragmentRepository holder(List<FragmentRepository> repos, FragmentIndex index, int fragment) {
        String id = index.fragments().get(fragment).repositoryId();
        return repos.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }

    @Property(tries = 60)
    void commits_and_recovers_with_every_layout(
            @ForAll @IntRange(min = 0, max = 3000) int length, @ForAll @IntRange(min = 1, max = 6) int m,
            @ForAll @IntRange(min = 0, max = 3) int k, @ForAll Layout layout,
            @ForAll @IntRange(min = 1, max = 40) int stripe, @ForAll @IntRange(min = 1, max = 500) int segment) {
        IdaCodec codec = (layout == Layout.RABIN ? IdaCodec.rabin(m, k)
                : layout == Layout.XOR ? IdaCodec.xor(m) : IdaCodec.systematic(m, k)).withStripeSizeBytes(stripe);
        List<FragmentRepository> repos = Stores.inMemory(codec.n());
        CheckpointStore store = store(codec, repos, segment);
        byte[] data = Stores.data(length, length);
        FragmentIndex index = store.commit("job", data);
        assertEquals(layout == Layout.RABIN ? Encoding.IDA_RABIN
                : layout == Layout.XOR ? Encoding.IDA_XOR : Encoding.IDA_SYSTEMATIC, index.encoding());
        assertEquals(stripe, index.stripeBytes());
        assertEquals(m, index.m());
        assertEquals(codec.k(), index.k());
        assertArrayEquals(data, store.recover("job").orElseThrow().toByteArray());
        // A store configured otherwise reads it all the same, from the index alone.
        CheckpointStore other = CheckpointStore.perennial(IdaCodec.systematic(1, 0), repos).build();
        assertArrayEquals(data, other.recover("job").orElseThrow().toByteArray());
    }

    @Test
    void any_m_of_the_n_fragments_rebuild_the_checkpoint() throws Exception {
        IdaCodec codec = IdaCodec.systematic(3, 2).withStripeSizeBytes(16);
        byte[] data = Stores.data(1, 700);
        for (int a = 0; a < 5; a++) {
            for (int b = a + 1; b < 5; b++) {
                List<FragmentRepository> repos = Stores.inMemory(5);
                CheckpointStore store = store(codec, repos, 256);
                FragmentIndex index = store.commit("job", data);
                holder(repos, index, a).delete(index.fragmentKey(a));
                holder(repos, index, b).delete(index.fragmentKey(b));
                assertArrayEquals(data, store.recover("job").orElseThrow().toByteArray(), a + "," + b);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                store.recoverTo(index, out);
                assertArrayEquals(data, out.toByteArray());
                int c = (b + 1) % 5 == a ? (b + 2) % 5 : (b + 1) % 5;
                Stores.corrupt(holder(repos, index, c), index.fragmentKey(c), 100);
                CheckpointUnavailableException e = assertThrows(CheckpointUnavailableException.class,
                        () -> store.recover("job"));
                assertEquals(3, e.required());
                assertEquals(2, e.verified());
            }
        }
    }

    @Test
    void stores_the_codecs_own_payloads() throws Exception {
        // One segment: each stored fragment is the codec's payload followed by its CRC-32C.
        for (IdaCodec codec : List.of(IdaCodec.systematic(4, 2), IdaCodec.rabin(3, 3), IdaCodec.xor(4))) {
            List<FragmentRepository> repos = Stores.inMemory(codec.n());
            byte[] data = Stores.data(7, 1000);
            FragmentIndex index = store(codec, repos, 4096).commit("job", data);
            List<Fragment> reference = codec.encode(data);
            for (int i = 0; i < codec.n(); i++) {
                byte[] stored = holder(repos, index, i).get(index.fragmentKey(i)).orElseThrow();
                ByteBuffer payload = reference.get(i).payload();
                byte[] expected = new byte[payload.remaining()];
                payload.get(expected);
                assertEquals(expected.length + Framing.CRC_BYTES, stored.length);
                assertArrayEquals(expected, Arrays.copyOf(stored, expected.length), codec + " " + i);
            }
        }
    }

    @Test
    void repair_regenerates_lost_fragments_byte_for_byte() throws Exception {
        IdaCodec codec = IdaCodec.rabin(3, 3).withStripeSizeBytes(32);
        List<FragmentRepository> repos = Stores.inMemory(9);
        CheckpointStore store = store(codec, repos, 200);
        byte[] data = Stores.data(2, 2000);
        FragmentIndex index = store.commit("job", data);
        assertEquals(5, store.reconstructionThreshold());
        List<byte[]> originals = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            originals.add(holder(repos, index, i).get(index.fragmentKey(i)).orElseThrow());
        }
        // Lose one: 5 remain, the threshold: nothing to do.
        holder(repos, index, 4).delete(index.fragmentKey(4));
        assertEquals(RepairReport.Status.HEALTHY, store.repair("job").status());
        // Lose two more (one corrupt): 3 remain, below the threshold.
        holder(repos, index, 0).delete(index.fragmentKey(0));
        Stores.corrupt(holder(repos, index, 2), index.fragmentKey(2), 999);
        RepairReport report = store.repair("job");
        assertEquals(RepairReport.Status.REPAIRED, report.status());
        assertEquals(3, report.verifiedBefore());
        assertEquals(6, report.availableAfter());
        assertEquals(List.of(0, 2, 4), report.regenerated());
        for (int i : List.of(0, 2, 4)) {
            assertArrayEquals(originals.get(i), holder(repos, report.index(), i).get(index.fragmentKey(i))
                    .orElseThrow(), "fragment " + i);
        }
        // The lost ones move to repositories holding none; the corrupt one is rewritten where it was.
        assertEquals(List.of("r6", "r2", "r7"), List.of(report.index().fragments().get(0).repositoryId(),
                report.index().fragments().get(2).repositoryId(), report.index().fragments().get(4).repositoryId()));
        assertArrayEquals(data, CheckpointStore.ephemeral(repos).build().recover("job").orElseThrow()
                .toByteArray());
    }

    @Test
    void needs_n_repositories() {
        assertEquals("repositories must number at least n = 9 for IDA_SYSTEMATIC: 8",
                assertThrows(IllegalArgumentException.class,
                        () -> CheckpointStore.perennial(IdaCodec.systematic(6, 3), Stores.inMemory(8))).getMessage());
        assertThrows(NullPointerException.class, () -> CheckpointStore.perennial(null, Stores.inMemory(8)));
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), Stores.inMemory(9)).build();
        assertEquals(8, store.reconstructionThreshold());
        assertEquals(6, store.m());
        assertEquals(9, store.n());
        assertEquals(Encoding.IDA_SYSTEMATIC, store.encoding());
        assertEquals(6, CheckpointStore.perennial(IdaCodec.systematic(3, 6), Stores.inMemory(9)).build()
                .reconstructionThreshold());
    }
}
