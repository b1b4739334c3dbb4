package io.github.volpex.checkpoint.store;

/**
 * The keys a store gives its objects: {@code <job>.<sequence>.<commit id, 16 hex digits>.f<fragment index>} for
 * fragments and {@code <job>.<sequence>.<commit id>.idx} for index copies. Job ids hold no dot, so
 * {@code <job>.} is a prefix no other job's keys share.
 */
final class StoreKeys {

    private static final String INDEX_SUFFIX = "idx";

    private StoreKeys() {
    }

    static String jobPrefix(String jobId) {
        return jobId + ".";
    }

    static String checkpointPrefix(String jobId, long sequence, long commitId) {
        return jobId + "." + sequence + "." + hex(commitId) + ".";
    }

    static String fragmentKey(String jobId, long sequence, long commitId, int fragmentIndex) {
        return checkpointPrefix(jobId, sequence, commitId) + "f" + fragmentIndex;
    }

    static String indexKey(String jobId, long sequence, long commitId) {
        return checkpointPrefix(jobId, sequence, commitId) + INDEX_SUFFIX;
    }

    private static String hex(long commitId) {
        String digits = Long.toHexString(commitId);
        return "0".repeat(16 - digits.length()) + digits;
    }

    /** A key of a store object, parsed. {@code fragmentIndex} is {@code -1} for an index copy. */
    record Parsed(String jobId, long sequence, long commitId, int fragmentIndex) {
        boolean isIndex() {
            return fragmentIndex < 0;
        }

        boolean sameCheckpoint(FragmentIndex index) {
            return jobId.equals(index.jobId()) && sequence == index.sequence() && commitId == index.commitId();
        }
    }

    /** Parses a key written by a store, or returns null for any other key. */
    static Parsed parse(String key) {
        String[] parts = key.split("\\.", -1);
        if (parts.length != 4 || !Names.isValidJobId(parts[0]) || parts[2].length() != 16) {
            return null;
        }
        try {
            long sequence = Long.parseLong(parts[1]);
            if (sequence < 0 || !Long.toString(sequence).equals(parts[1])) {
                return null;
            }
            long commitId = Long.parseUnsignedLong(parts[2], 16);
            if (!hex(commitId).equals(parts[2])) {
                return null;
            }
            if (parts[3].equals(INDEX_SUFFIX)) {
                return new Parsed(parts[0], sequence, commitId, -1);
            }
            if (parts[3].length() < 2 || parts[3].charAt(0) != 'f') {
                return null;
            }
            int fragmentIndex = Integer.parseInt(parts[3].substring(1));
            if (fragmentIndex < 0 || fragmentIndex >= FragmentIndex.MAX_FRAGMENTS
                    || !Integer.toString(fragmentIndex).equals(parts[3].substring(1))) {
                return null;
            }
            return new Parsed(parts[0], sequence, commitId, fragmentIndex);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
