package io.github.volpex.dataspace.zookeeper;

import java.util.HexFormat;

/**
 * The names that depend on a namespace's random id (its header holds it): the paths of its {@value #GUARDS} tag guards
 * and the keys of its blobs. The id in both makes a transaction planned for a namespace destroyed and created again
 * fail instead of applying to the new one, and lets namespaces share a blob store. Immutable.
 *
 * @param layout      the namespace's paths
 * @param namespaceId the id its header holds
 */
record NamespaceKeys(Layout layout, long namespaceId) {

    /** Tag guards per namespace: the data version of guard k counts the deletions of tag records hashed to k. */
    static final int GUARDS = 64;

    private static final HexFormat HEX = HexFormat.of();

    /** The path prefix of the guards: {@code <ns>/g/<namespace id>-}. */
    String guardPrefix() {
        return layout.guards + "/" + Long.toHexString(namespaceId) + "-";
    }

    /** The path of guard {@code k}, in [0, {@value #GUARDS}). */
    String guardPath(int k) {
        return guardPrefix() + HEX.toHexDigits((byte) k);
    }

    /** The guard of a tag name. */
    String guardPath(String name) {
        return guardPath(guardOf(name));
    }

    /**
     * The guard of a tag name: one of {@value #GUARDS}, by the name's {@link String#hashCode()} (same on every JVM).
     */
    static int guardOf(String name) {
        return Math.floorMod(name.hashCode(), GUARDS);
    }

    /** The prefix of this namespace's blob keys: the id in hex and a dash. */
    String blobPrefix() {
        return Long.toHexString(namespaceId) + "-";
    }

    /** The blob-store key of a value: namespace id, SHA-256 and the incarnation of its reference node, in hex. */
    String blobKey(String shaHex, long incarnation) {
        return blobPrefix() + shaHex + "-" + Long.toHexString(incarnation);
    }
}
