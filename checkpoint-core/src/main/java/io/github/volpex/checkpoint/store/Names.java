package io.github.volpex.checkpoint.store;

import java.util.Objects;

/** Argument checks for identifiers, with messages that name the parameter, the value and the bound. */
final class Names {

    /** The longest job id, in characters. */
    static final int MAX_JOB_ID_LENGTH = 64;

    private Names() {
    }

    static boolean isValidJobId(String jobId) {
        int length = jobId.length();
        if (length == 0 || length > MAX_JOB_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = jobId.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    static String requireJobId(String jobId) {
        Objects.requireNonNull(jobId, "jobId");
        if (!isValidJobId(jobId)) {
            throw new IllegalArgumentException("jobId must be 1 to " + MAX_JOB_ID_LENGTH
                    + " characters of [A-Za-z0-9_-]: \"" + jobId + "\"");
        }
        return jobId;
    }
}
