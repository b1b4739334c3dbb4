package io.github.volpex.examples.cluster;

import java.util.Map;
import java.util.Optional;

/**
 * The credentials of the tour's S3 storage hosts: from the environment ({@code AWS_ACCESS_KEY_ID},
 * {@code AWS_SECRET_ACCESS_KEY}), as the AWS tools take them, so that they never appear on a command line.
 *
 * @param accessKeyId     the access key id
 * @param secretAccessKey the secret access key
 */
record S3Credentials(String accessKeyId, String secretAccessKey) {

    /** The variable holding the access key id. */
    static final String ACCESS_KEY_VARIABLE = "AWS_ACCESS_KEY_ID";
    /** The variable holding the secret access key. */
    static final String SECRET_KEY_VARIABLE = "AWS_SECRET_ACCESS_KEY";
    /** The access key id of {@link #LOOPBACK} (a constant, for the storage host's help). */
    static final String LOOPBACK_ACCESS_KEY = "volpex-tour";
    /** The secret access key of {@link #LOOPBACK}. */
    static final String LOOPBACK_SECRET_KEY = "volpex-tour-secret";
    /** What the tour's own storage hosts (S3Proxy on loopback) use when the environment names none. */
    static final S3Credentials LOOPBACK = new S3Credentials(LOOPBACK_ACCESS_KEY, LOOPBACK_SECRET_KEY);

    @Override
    public String toString() {
        return "S3Credentials[" + accessKeyId + ", secret hidden]";
    }

    /** The credentials the environment names, if it names both parts. */
    static Optional<S3Credentials> fromEnvironment(Map<String, String> environment) {
        String id = environment.get(ACCESS_KEY_VARIABLE);
        String secret = environment.get(SECRET_KEY_VARIABLE);
        return id == null || secret == null || id.isBlank() || secret.isBlank() ? Optional.empty()
                : Optional.of(new S3Credentials(id, secret));
    }

    /** The variables that give a child JVM these credentials. */
    Map<String, String> environment() {
        return Map.of(ACCESS_KEY_VARIABLE, accessKeyId, SECRET_KEY_VARIABLE, secretAccessKey);
    }
}
