package io.github.volpex.dataspace.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a namespace keeps what, as znode paths (header format 3), and why every znode's children fit one ZooKeeper
 * answer. A {@code getChildren} answer holds {@value #LISTING_BYTES} bytes plus, per child, {@value #CHILD_BYTES}
 * bytes and the child's name, and a client refuses an answer of its {@code jute.maxbuffer} or more (1 MiB − 1 by
 * default), losing its connection instead. The directories that grow with the job are therefore spread over buckets,
 * as Git spreads its objects over directories named by a hash prefix: tag records and hashed tags' dictionary entries
 * over {@value #TAG_BUCKETS} buckets named by the first three hex digits of the SHA-256 of the tag's name, blob
 * references and the default store's blobs over {@value #BLOB_BUCKETS} buckets named by the first two hex digits of
 * the value's SHA-256. A bucket is created by the first request that needs it (which finds it missing) and stays
 * until the namespace is destroyed.
 *
 * <p>The bounds at the default {@code jute.maxbuffer} ({@link #childrenPerListing(int, int)}): a tag bucket lists
 * 5,139 names of the longest form (200 characters), so a namespace holds about 2·10⁷ tags of such names before its
 * fullest bucket no longer lists (4,096 × 5,139, less the spread of a uniform hash; three times as many of the hashed
 * form); a reference bucket lists 15,419 and a store bucket 10,082 blobs (about 3.9·10⁶ and 2.6·10⁶ blobs). Every
 * other directory is bounded by the options: the process ids by the process count, a process's read log by its
 * capacity (65,536 entries list while the request numbers stay below 10¹¹), a reference's pins by the puts of that
 * value in flight at once, a blob's chunks by 4,096.
 */
final class Layout {

    /** Buckets of the tag records and of the dictionary, named by three lowercase hex digits. */
    static final int TAG_BUCKETS = 4096;
    /** Buckets of the blob references and of the default store, named by two lowercase hex digits. */
    static final int BLOB_BUCKETS = 256;
    /** Bytes a child adds to a {@code getChildren} answer beyond its name: the length of the name. */
    static final int CHILD_BYTES = 4;
    /** Bytes of a {@code getChildren} answer beyond its children: the reply header and the list's length. */
    static final int LISTING_BYTES = 20;
    /** The longest child name in each directory. */
    static final int MAX_TAG_NAME = TagNames.MAX_ESCAPED;
    static final int MAX_HASHED_NAME = 65;
    static final int MAX_REFERENCE_NAME = 64;
    static final int MAX_STORE_KEY = 100;
    static final int MAX_BUCKET_NAME = 3;

    private static final HexFormat HEX = HexFormat.of();
    /** A blob key of this package: namespace id, SHA-256 and incarnation, in hex. */
    private static final Pattern BLOB_KEY = Pattern.compile("[0-9a-f]{1,16}-([0-9a-f]{64})-[0-9a-f]{1,16}");

    final String namespace;
    final String processes;
    final String tags;
    final String references;
    final String dictionary;
    final String store;
    final String guards;

    Layout(String namespace) {
        this.namespace = namespace;
        this.processes = namespace + "/p";
        this.tags = namespace + "/t";
        this.references = namespace + "/b";
        this.dictionary = namespace + "/n";
        this.store = namespace + "/s";
        this.guards = namespace + "/g";
    }

    /** The namespace's top-level directories, in the order {@code open} checks them. */
    String[] directories() {
        return new String[] {processes, tags, references, dictionary, store, guards};
    }

    String processPath(int processId) {
        return processes + "/" + processId;
    }

    String entryPath(int processId, long requestNumber) {
        return processes + "/" + processId + "/" + requestNumber;
    }

    /** The bucket a tag's record lives in. */
    String tagBucketPath(String name) {
        return tags + "/" + tagBucketName(tagBucketOf(name));
    }

    String tagPath(String name) {
        return tagBucketPath(name) + "/" + name;
    }

    /** The bucket a hashed tag name's dictionary entry lives in. */
    String dictionaryBucketPath(String name) {
        return dictionary + "/" + tagBucketName(tagBucketOf(name));
    }

    String dictionaryPath(String name) {
        return dictionaryBucketPath(name) + "/" + name;
    }

    /** The bucket a blob's reference node lives in. */
    String referenceBucketPath(String shaHex) {
        return references + "/" + shaHex.substring(0, 2);
    }

    String referencePath(String shaHex) {
        return referenceBucketPath(shaHex) + "/" + shaHex;
    }

    /** The tag bucket of a name: the first 12 bits of the SHA-256 of its characters (ASCII), so any names spread. */
    static int tagBucketOf(String name) {
        byte[] sha = TagNames.sha256().digest(name.getBytes(StandardCharsets.US_ASCII));
        return (sha[0] & 0xff) << 4 | (sha[1] & 0xff) >>> 4;
    }

    /**
     * The blob bucket of a blob key: the first two hex digits of the value's SHA-256 for a key of this package, else
     * the first byte of the SHA-256 of the key.
     */
    static int blobBucketOf(String key) {
        Matcher blob = BLOB_KEY.matcher(key);
        if (blob.matches()) {
            return HexFormat.fromHexDigits(blob.group(1), 0, 2);
        }
        return TagNames.sha256().digest(key.getBytes(StandardCharsets.UTF_8))[0] & 0xff;
    }

    /** The SHA-256 (hex) a blob key of this package names, or null for another key. */
    static String shaOfKey(String key) {
        Matcher blob = BLOB_KEY.matcher(key);
        return blob.matches() ? blob.group(1) : null;
    }

    /** A tag bucket's name: three lowercase hex digits. */
    static String tagBucketName(int bucket) {
        return HEX.toHexDigits((short) bucket).substring(1);
    }

    /** A blob bucket's name: two lowercase hex digits. */
    static String blobBucketName(int bucket) {
        return HEX.toHexDigits((byte) bucket);
    }

    /** The bytes of a {@code getChildren} answer listing {@code children} names of {@code nameBytes} bytes each. */
    static long listingBytes(long children, int nameBytes) {
        return LISTING_BYTES + children * (CHILD_BYTES + (long) nameBytes);
    }

    /** The most children of names up to {@code nameBytes} bytes one answer lists below {@code responseLimit}. */
    static long childrenPerListing(int responseLimit, int nameBytes) {
        return (responseLimit - 1L - LISTING_BYTES) / (CHILD_BYTES + nameBytes);
    }
}
