package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;

/**
 * The keys a store gives its objects: {@code <job>.<epoch>.<sequence>.<commit id>.<suffix>}, the three numbers as 16
 * hexadecimal digits each, and the suffix {@code f<fragment index>} for a fragment, {@code idx} for a copy of the
 * index and {@code ok} for a commit marker (an empty object whose presence proves that the checkpoint reached its
 * commit point). Job ids hold no dot, so {@code <job>.} is a prefix no other job's keys share; with a 64-character job
 * id and fragment {@code f254} a key is 120 characters long, the most {@link FragmentRepository} allows. Because the
 * identity is in the key, a listing alone tells every checkpoint present, its order, and whether it is committed.
 */
final class StoreKeys {

    private static final String INDEX_SUFFIX = "idx";
    private static final String MARKER_SUFFIX = "ok";

    private StoreKeys() {
    }

    static String jobPrefix(String jobId) {
        return jobId + ".";
    }

    static String checkpointPrefix(String jobId, CheckpointId id) {
        return jobId + "." + hex(id.epoch()) + "." + hex(id.sequence()) + "." + hex(id.commitId()) + ".";
    }

    static String fragmentKey(String jobId, CheckpointId id, int fragmentIndex) {
        return checkpointPrefix(jobId, id) + "f" + fragmentIndex;
    }

    static String indexKey(String jobId, CheckpointId id) {
        return checkpointPrefix(jobId, id) + INDEX_SUFFIX;
    }

    static String markerKey(String jobId, CheckpointId id) {
        return checkpointPrefix(jobId, id) + MARKER_SUFFIX;
    }

    private static String hex(long value) {
        String digits = Long.toHexString(value);
        return "0".repeat(16 - digits.length()) + digits;
    }

    /** What a key of a store object names. */
    enum Kind {
        FRAGMENT,
        INDEX,
        MARKER
    }

    /** A key of a store object, parsed. {@code fragmentIndex} is {@code -1} unless it is a fragment. */
    record Parsed(String jobId, CheckpointId id, Kind kind, int fragmentIndex) {
    }

    /** Parses a key written by a store, or returns null for any other key. */
    static Parsed parse(String key) {
        String[] parts = key.split("\\.", -1);
        if (parts.length != 5 || !Names.isValidJobId(parts[0])) {
            return null;
        }
        long epoch = parseHex(parts[1]);
        long sequence = parseHex(parts[2]);
        long commitId = parseHex(parts[3]);
        if (epoch < 0 || sequence < 0 || (commitId == -1 && !parts[3].equals("ffffffffffffffff"))) {
            return null;
        }
        CheckpointId id = new CheckpointId(epoch, sequence, commitId);
        String suffix = parts[4];
        if (suffix.equals(INDEX_SUFFIX)) {
            return new Parsed(parts[0], id, Kind.INDEX, -1);
        }
        if (suffix.equals(MARKER_SUFFIX)) {
            return new Parsed(parts[0], id, Kind.MARKER, -1);
        }
        if (suffix.length() < 2 || suffix.length() > 4 || suffix.charAt(0) != 'f') {
            return null;
        }
        String digits = suffix.substring(1);
        if (!digits.chars().allMatch(c -> c >= '0' && c <= '9') || (digits.length() > 1 && digits.charAt(0) == '0')) {
            return null;
        }
        int fragmentIndex = Integer.parseInt(digits);
        return fragmentIndex < FragmentIndex.MAX_FRAGMENTS ? new Parsed(parts[0], id, Kind.FRAGMENT, fragmentIndex)
                : null;
    }

    /** Sixteen lower-case hexadecimal digits as an unsigned value, or -1 (for a commit id: see the caller). */
    private static long parseHex(String digits) {
        if (digits.length() != 16) {
            return -1;
        }
        for (int i = 0; i < 16; i++) {
            char c = digits.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return -1;
            }
        }
        return Long.parseUnsignedLong(digits, 16);
    }
}
