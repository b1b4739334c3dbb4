package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The laws of the block chunkers: they cut the input exactly, within their size bounds, and CDC resynchronises. */
class ChunkerPropertiesTest {

    @Provide
    Arbitrary<Chunking> chunkings() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(Chunking.MIN_BLOCK_BYTES, 4096).map(Chunking::fixed),
                Arbitraries.of(256, 512, 1024, 2048).map(Chunking::contentDefined));
    }

    @Property(tries = 200)
    void chunksConcatenateToTheInputAndRespectTheirBounds(@ForAll("chunkings") Chunking chunking,
                                                           @ForAll @IntRange(max = 40_000) int length,
                                                           @ForAll long seed,
                                                           @ForAll boolean lowEntropy) {
        byte[] data = data(seed, length, lowEntropy);
        List<int[]> chunks = cut(chunking.chunker(), data, 0, data.length);
        int position = 0;
        for (int i = 0; i < chunks.size(); i++) {
            int[] chunk = chunks.get(i);
            assertEquals(position, chunk[0], "chunk " + i + " starts where the previous ended");
            int size = chunk[1] - chunk[0];
            assertTrue(size >= 1 && size <= chunking.maxBytes(), "chunk " + i + " of " + chunking + ": " + size);
            if (i < chunks.size() - 1) {
                assertTrue(size >= chunking.minBytes(), "chunk " + i + " (not the last) of " + chunking + ": "
                        + size);
            }
            position = chunk[1];
        }
        assertEquals(data.length, position);
        assertEquals(data.length == 0, chunks.isEmpty());
    }

    @Property(tries = 100)
    void contentDefinedBoundariesResynchroniseAfterAnInsertion(@ForAll long seed,
                                                                @ForAll @IntRange(min = 1, max = 3000) int inserted,
                                                                @ForAll @IntRange(max = 100) int atPercent,
                                                                @ForAll @IntRange(min = 0, max = 3) int averageLog) {
        Chunking chunking = Chunking.contentDefined(256 << averageLog);
        byte[] original = data(seed, 200_000, false);
        int at = (int) ((long) original.length * atPercent / 100);
        byte[] insertion = data(~seed, inserted, false);
        byte[] changed = new byte[original.length + inserted];
        System.arraycopy(original, 0, changed, 0, at);
        System.arraycopy(insertion, 0, changed, at, inserted);
        System.arraycopy(original, at, changed, at + inserted, original.length - at);
        TreeSet<Integer> before = boundaries(chunking.chunker(), original);
        TreeSet<Integer> after = new TreeSet<>();
        for (int boundary : boundaries(chunking.chunker(), changed)) {
            if (boundary >= at + inserted) {
                after.add(boundary - inserted);
            }
        }
        // Past a few maximal chunks beyond the change, every cut of the original is a cut of the changed bytes.
        int settled = at + 8 * chunking.maxBytes();
        assertEquals(before.tailSet(settled), after.tailSet(settled), "cuts past " + settled);
        // And before the change, nothing moved.
        TreeSet<Integer> head =
                new TreeSet<>(boundaries(chunking.chunker(), changed).headSet(at - chunking.maxBytes()));
        assertEquals(before.headSet(at - chunking.maxBytes()), head, "cuts before " + at);
    }

    @Property(tries = 50)
    void contentDefinedChunksAverageNearTheirTarget(@ForAll long seed) {
        Chunking chunking = Chunking.contentDefined(1024);
        byte[] data = data(seed, 1 << 20, false);
        int chunks = cut(chunking.chunker(), data, 0, data.length).size();
        double mean = (double) data.length / chunks;
        // Normalised chunking centres sizes near the average (FastCDC §3.3); a skewed cut rule would drift far off.
        assertTrue(mean >= 0.75 * 1024 && mean <= 1.5 * 1024, "mean chunk size " + mean);
    }

    @Example
    void fixedBlocksCutEveryBlockBytes() {
        byte[] data = new byte[1000];
        List<int[]> chunks = cut(new FixedChunker(300), data, 0, data.length);
        assertEquals(List.of(300, 600, 900, 1000), chunks.stream().map(c -> c[1]).toList());
    }

    @Example
    void aChunkerCutsOnlyWithinItsRange() {
        byte[] data = data(7, 10_000, false);
        Chunker chunker = Chunking.contentDefined(256).chunker();
        assertEquals(5010, chunker.end(data, 5000, 5010));
        int end = chunker.end(data, 100, 10_000);
        assertTrue(end >= 100 + 64 && end <= 100 + 1024, "end " + end);
    }

    @Example
    void badChunkingsAreRefusedNamingTheValueAndTheBound() {
        assertEquals("blockBytes must be in [256, 16777216]: 255",
                assertThrows(IllegalArgumentException.class, () -> Chunking.fixed(255)).getMessage());
        assertEquals("averageBytes must be a power of two in [256, 4194304]: 1000",
                assertThrows(IllegalArgumentException.class, () -> Chunking.contentDefined(1000)).getMessage());
        assertEquals("averageBytes must be a power of two in [256, 4194304]: 8388608",
                assertThrows(IllegalArgumentException.class, () -> Chunking.contentDefined(1 << 23)).getMessage());
        assertEquals(Chunking.fixed(Chunking.DEFAULT_BLOCK_BYTES), Chunking.fixed());
        assertEquals(128, Chunking.contentDefined(512).minBytes());
        assertEquals(2048, Chunking.contentDefined(512).maxBytes());
    }

    static byte[] data(long seed, int length, boolean lowEntropy) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] data = new byte[length];
        if (lowEntropy) {
            for (int i = 0; i < length; i++) {
                data[i] = (byte) (random.nextInt(8) == 0 ? random.nextInt(4) : 0);
            }
        } else {
            random.nextBytes(data);
        }
        return data;
    }

    static List<int[]> cut(Chunker chunker, byte[] data, int from, int to) {
        List<int[]> chunks = new ArrayList<>();
        for (int start = from; start < to; ) {
            int end = chunker.end(data, start, to);
            chunks.add(new int[] {start, end});
            start = end;
        }
        return chunks;
    }

    private static TreeSet<Integer> boundaries(Chunker chunker, byte[] data) {
        TreeSet<Integer> set = new TreeSet<>();
        for (int[] chunk : cut(chunker, data, 0, data.length)) {
            set.add(chunk[1]);
        }
        return set;
    }
}
