/**
 * Checkpoint fragments on Amazon S3 or any S3-compatible object store, through the AWS SDK for Java v2.
 *
 * <p>Start from {@link io.github.volpex.checkpoint.repository.s3.S3Repository}.
 *
 * @since 0.1
 */
module io.github.volpex.checkpoint.repository.s3 {
    requires transitive io.github.volpex.checkpoint;
    requires transitive software.amazon.awssdk.services.s3;
    requires software.amazon.awssdk.core;
    requires software.amazon.awssdk.awscore;
    requires software.amazon.awssdk.auth;
    requires software.amazon.awssdk.regions;
    requires software.amazon.awssdk.http;
    requires software.amazon.awssdk.http.apache5;
    requires software.amazon.awssdk.retries;
    requires software.amazon.awssdk.retries.api;

    exports io.github.volpex.checkpoint.repository.s3;
}
