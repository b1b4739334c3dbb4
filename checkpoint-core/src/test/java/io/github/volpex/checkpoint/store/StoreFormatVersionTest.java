package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Full and differential checkpoints share one versioned index format (2 and 3), and the block manifest carries its
 * own version: a reader refuses a version it does not know with an {@link UnsupportedFormatException}.
 */
class StoreFormatVersionTest {

    static FragmentIndex differential(FragmentIndex full) {
        return new FragmentIndex(full.jobId(), full.epoch(), full.sequence(), full.commitId(), full.revision(),
                full.encoding(), full.m(), full.k(), full.stripeBytes(), full.segmentBytes(), full.checkpointBytes(),
                full.checkpointSha256(), full.createdAt(), full.leaseExpiry(), full.fragments(), true);
    }

    @Test
    void aFullIndexIsVersionTwoByteForByteAndADifferentialOneVersionThreeWithItsLayout() {
        FragmentIndex full = FragmentIndexTest.example();
        FragmentIndex diff = differential(full);
        byte[] fullBytes = full.toBytes();
        byte[] diffBytes = diff.toBytes();
        assertEquals(2, ByteBuffer.wrap(fullBytes, 4, 2).getShort());
        assertEquals(3, ByteBuffer.wrap(diffBytes, 4, 2).getShort());
        assertEquals(1, diffBytes[8], "payload layout byte");
        assertEquals(fullBytes.length + 1, diffBytes.length);
        // After the layout byte, version 3 is version 2's body.
        assertArrayEquals(java.util.Arrays.copyOfRange(fullBytes, 8, fullBytes.length - 4),
                java.util.Arrays.copyOfRange(diffBytes, 9, diffBytes.length - 4));
        assertFalse(FragmentIndex.parse(fullBytes).isDifferential());
        FragmentIndex parsed = FragmentIndex.parse(diffBytes);
        assertTrue(parsed.isDifferential());
        assertEquals(diff, parsed);
        assertFalse(diff.equals(full), "the layout is part of an index's value");
        assertTrue(diff.revised(diff.fragments(), diff.leaseExpiry()).isDifferential(), "a revision keeps it");
    }

    @Test
    void anUnknownLayoutIsRefusedAsCorrupt() {
        byte[] bytes = differential(FragmentIndexTest.example()).toBytes();
        bytes[8] = 2;
        withCrc(bytes);
        assertEquals("index payload layout must be 1: 2",
                assertThrows(CorruptIndexException.class, () -> FragmentIndex.parse(bytes)).getMessage());
    }

    @Property(tries = 50)
    void everyUnknownIndexVersionIsRefusedTyped(@ForAll @IntRange(max = 65535) int version) {
        if (version == 2 || version == 3) {
            return;
        }
        byte[] bytes = FragmentIndexTest.example().toBytes();
        ByteBuffer.wrap(bytes, 4, 2).putShort((short) version);
        withCrc(bytes);
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> FragmentIndex.parse(bytes));
        assertEquals(version, e.version());
        assertEquals(List.of(2, 3), e.supportedVersions());
    }

    static Manifest sampleManifest(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int blocks = random.nextInt(0, 20);
        List<Manifest.Segment> segments = List.of(
                new Manifest.Segment(new CheckpointId(3, 7, random.nextLong()), 5000, Sha256.of(new byte[] {1}), 4000),
                new Manifest.Segment(new CheckpointId(3, 9, random.nextLong()), 900, Sha256.of(new byte[] {2}), 800));
        int[] segmentOf = new int[blocks];
        long[] offset = new long[blocks];
        int[] length = new int[blocks];
        byte[] hashes = new byte[blocks * 32];
        random.nextBytes(hashes);
        long total = 0;
        for (int i = 0; i < blocks; i++) {
            segmentOf[i] = random.nextInt(3);
            length[i] = random.nextInt(1, 300);
            offset[i] = random.nextInt(0, 500);
            total += length[i];
        }
        return new Manifest(1, 1024, total, Sha256.of(new byte[] {9}), 1000, segments, blocks, segmentOf, offset,
                length, hashes);
    }

    @Property(tries = 100)
    void aManifestRoundTripsAtTheEndOfItsPayload(@ForAll long seed) {
        Manifest manifest = sampleManifest(seed);
        byte[] payload = payload(manifest);
        Manifest parsed = Manifest.ofPayload(payload);
        assertArrayEquals(manifest.toBytes(), parsed.toBytes());
        assertEquals(manifest.segments, parsed.segments);
        assertEquals(manifest.stateBytes, parsed.stateBytes);
    }

    @Test
    void anUnknownManifestVersionIsRefusedTyped() {
        byte[] payload = payload(sampleManifest(1));
        int start = 1000;
        ByteBuffer.wrap(payload, start + 4, 2).putShort((short) 2);
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> Manifest.ofPayload(payload));
        assertEquals("block manifest", e.format());
        assertEquals(2, e.version());
        assertEquals("block manifest format version must be one of [1]: 2", e.getMessage());
    }

    @Test
    void aDamagedOrInconsistentManifestIsRefusedAsCorrupt() {
        byte[] payload = payload(sampleManifest(2));
        payload[1000 + 20] ^= 1;
        assertTrue(assertThrows(CorruptIndexException.class, () -> Manifest.ofPayload(payload)).getMessage()
                .startsWith("block manifest checksum must be"));
        byte[] shorter = java.util.Arrays.copyOfRange(payload(sampleManifest(2)), 1, 1000 + 1 + 0);
        assertThrows(CorruptIndexException.class, () -> Manifest.ofPayload(shorter));
        assertThrows(CorruptIndexException.class, () -> Manifest.ofPayload(new byte[3]));
        // A block beyond its segment's block bytes is refused when the manifest is made.
        assertThrows(IllegalArgumentException.class, () -> new Manifest(0, 256, 10, Sha256.of(new byte[0]), 5,
                List.of(), 1, new int[] {0}, new long[] {0}, new int[] {10}, new byte[32]));
    }

    private static byte[] payload(Manifest manifest) {
        byte[] bytes = manifest.toBytes();
        byte[] payload = new byte[(int) manifest.ownBlockBytes + bytes.length + 4];
        System.arraycopy(bytes, 0, payload, (int) manifest.ownBlockBytes, bytes.length);
        ByteBuffer.wrap(payload, payload.length - 4, 4).putInt(bytes.length);
        return payload;
    }

    private static void withCrc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer.wrap(bytes, bytes.length - 4, 4).putInt((int) crc.getValue());
    }
}
