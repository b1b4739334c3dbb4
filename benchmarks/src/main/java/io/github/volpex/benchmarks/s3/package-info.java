/**
 * The S3 repository's throughput: a checkpoint committed and recovered by the store over S3 endpoints, beside plain
 * S3 transfers of the same bytes ({@code S3CheckpointBenchmark}).
 */
package io.github.volpex.benchmarks.s3;
