package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The namespace layout's paths and bounds: every spread directory's bucket is a pure function of the name or the
 * value, buckets are named by three hex digits, and names spread evenly enough that the fullest bucket of a namespace
 * at the scale the package documents — 10⁶ tags of the longest names, 10⁵ blobs — lists in one answer at ZooKeeper's
 * default {@code jute.maxbuffer}, with room to spare; the documented capacities are what the arithmetic gives.
 */
class LayoutTest {

    private static final int DEFAULT_LIMIT = ZooKeeperDataspace.Builder.DEFAULT_JUTE_MAX_BUFFER;

    @Test
    void paths_put_each_record_in_its_bucket() {
        Layout layout = new Layout("/job");
        // SHA-256("x") begins 2d71…: the tag "x" lives in bucket 2d7.
        assertEquals("/job/t/2d7/x", layout.tagPath("x"));
        assertEquals("/job/t/2d7", layout.tagBucketPath("x"));
        assertEquals("/job/n/2d7/x", layout.dictionaryPath("x"));
        String sha = "ab".repeat(32);
        assertEquals("/job/b/ab/" + sha, layout.referencePath(sha));
        assertEquals("/job/p/3", layout.processPath(3));
        assertEquals("/job/p/3/17", layout.entryPath(3, 17));
        assertEquals(0xab, Layout.blobBucketOf("1f-" + sha + "-2a"));
        assertEquals(sha, Layout.shaOfKey("1f-" + sha + "-2a"));
        assertNull(Layout.shaOfKey("1f-" + sha), "not a blob key of this package");
        assertNull(Layout.shaOfKey("1F-" + sha + "-2a"), "upper case is not a blob key of this package");
    }

    @Test
    void buckets_are_named_by_hex_digits() {
        Set<String> names = new HashSet<>();
        for (int bucket = 0; bucket < Layout.TAG_BUCKETS; bucket++) {
            String name = Layout.tagBucketName(bucket);
            assertTrue(name.matches("[0-9a-f]{3}"), name);
            assertEquals(bucket, HexFormat.fromHexDigits(name));
            names.add(name);
        }
        assertEquals(Layout.TAG_BUCKETS, names.size());
        names.clear();
        for (int bucket = 0; bucket < Layout.BLOB_BUCKETS; bucket++) {
            String name = Layout.blobBucketName(bucket);
            assertTrue(name.matches("[0-9a-f]{2}"), name);
            assertEquals(bucket, HexFormat.fromHexDigits(name));
            names.add(name);
        }
        assertEquals(Layout.BLOB_BUCKETS, names.size());
    }

    @Property(tries = 200)
    void a_name_and_a_key_always_fall_in_a_bucket(@ForAll String name, @ForAll String key) {
        String escaped = TagNames.name(name);
        int bucket = Layout.tagBucketOf(escaped);
        assertTrue(bucket >= 0 && bucket < Layout.TAG_BUCKETS, escaped);
        assertEquals(bucket, Layout.tagBucketOf(escaped), "a pure function");
        int keyBucket = Layout.blobBucketOf(key);
        assertTrue(keyBucket >= 0 && keyBucket < Layout.BLOB_BUCKETS, key);
    }

    @Test
    void the_documented_capacities_are_what_one_answer_holds() {
        assertEquals(5_139, Layout.childrenPerListing(DEFAULT_LIMIT, Layout.MAX_TAG_NAME));
        assertEquals(15_196, Layout.childrenPerListing(DEFAULT_LIMIT, Layout.MAX_HASHED_NAME));
        assertEquals(15_419, Layout.childrenPerListing(DEFAULT_LIMIT, Layout.MAX_REFERENCE_NAME));
        assertEquals(10_082, Layout.childrenPerListing(DEFAULT_LIMIT, Layout.MAX_STORE_KEY));
        // A read log of 65,536 entries lists while its request numbers have at most 11 digits.
        assertTrue(Layout.listingBytes(65_536, 11) < DEFAULT_LIMIT);
        assertTrue(Layout.listingBytes(65_536, 12) >= DEFAULT_LIMIT);
        // A blob has at most 4,096 chunks of 512 KiB: every Java array fits.
        assertTrue(4_096L * ZooKeeperBlobStore.CHUNK_BYTES >= Integer.MAX_VALUE);
        assertTrue(Layout.listingBytes(Layout.TAG_BUCKETS, Layout.MAX_BUCKET_NAME) < 64 << 10,
                "a directory of buckets lists easily");
        assertEquals(Layout.listingBytes(5_139, Layout.MAX_TAG_NAME) < DEFAULT_LIMIT, true);
        assertEquals(Layout.listingBytes(5_140, Layout.MAX_TAG_NAME) < DEFAULT_LIMIT, false);
    }

    @Test
    void a_million_tags_spread_so_that_the_fullest_bucket_lists_even_with_the_longest_names() {
        int[] sequential = new int[Layout.TAG_BUCKETS];
        for (int i = 0; i < 1_000_000; i++) {
            sequential[Layout.tagBucketOf(TagNames.name("task-" + i))]++;
        }
        int[] structured = new int[Layout.TAG_BUCKETS];
        for (int row = 0; row < 1_000; row++) {
            for (int column = 0; column < 1_000; column++) {
                structured[Layout.tagBucketOf(TagNames.name("row/" + row + "/column/" + column))]++;
            }
        }
        for (int[] counts : new int[][] {sequential, structured}) {
            int fullest = max(counts);
            // 244 names per bucket on average; a uniform spread stays within a few standard deviations (15.6).
            assertTrue(fullest < 244 + 8 * 16, "fullest bucket: " + fullest);
            assertTrue(Layout.listingBytes(fullest, Layout.MAX_TAG_NAME) < DEFAULT_LIMIT / 16,
                    "the fullest bucket lists in a sixteenth of an answer even with 200-character names");
        }
    }

    @Test
    void a_hundred_thousand_blobs_spread_so_that_the_fullest_bucket_lists() {
        SplittableRandom random = new SplittableRandom(42);
        int[] references = new int[Layout.BLOB_BUCKETS];
        byte[] sha = new byte[32];
        for (int i = 0; i < 100_000; i++) {
            random.nextBytes(sha);
            String shaHex = HexFormat.of().formatHex(TagNames.sha256().digest(sha));
            references[HexFormat.fromHexDigits(shaHex, 0, 2)]++;
            assertEquals(HexFormat.fromHexDigits(shaHex, 0, 2),
                    Layout.blobBucketOf(Long.toHexString(random.nextLong()) + "-" + shaHex + "-"
                            + Long.toHexString(random.nextLong() >>> 1)), "a key's bucket is its value's");
        }
        int fullest = max(references);
        // 391 blobs per bucket on average; a uniform spread stays within a few standard deviations (19.8).
        assertTrue(fullest < 391 + 8 * 20, "fullest bucket: " + fullest);
        assertTrue(Layout.listingBytes(fullest, Layout.MAX_STORE_KEY) < DEFAULT_LIMIT / 16,
                "the fullest bucket lists in a sixteenth of an answer");
    }

    @Property(tries = 50)
    void a_listing_of_up_to_the_capacity_fits_and_one_more_does_not(
            @ForAll @IntRange(min = 16 << 10, max = 64 << 20) int limit,
            @ForAll @IntRange(min = 1, max = 255) int name) {
        long most = Layout.childrenPerListing(limit, name);
        assertTrue(Layout.listingBytes(most, name) < limit);
        assertTrue(Layout.listingBytes(most + 1, name) >= limit);
    }

    private static int max(int[] counts) {
        int max = 0;
        for (int count : counts) {
            max = Math.max(max, count);
        }
        return max;
    }
}
