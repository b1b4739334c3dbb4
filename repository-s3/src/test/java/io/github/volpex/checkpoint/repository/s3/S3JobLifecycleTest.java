package io.github.volpex.checkpoint.repository.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.ProcessCheckpoint;
import io.github.volpex.checkpoint.store.RepositoriesUnreachableException;
import io.github.volpex.erasure.IdaCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A job's life on S3 servers (S3Proxy in this JVM): process checkpoints committed by two writers in turn, recovered
 * with their request number; a recovery that reaches no server names each one's cause (connection refused, refused
 * credentials, a missing bucket); and deleting the job leaves no object of it, as a raw S3 client lists the buckets,
 * while another job's stay.
 */
class S3JobLifecycleTest {

    private static final List<LocalS3> SERVERS = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        for (int i = 0; i < 3; i++) {
            SERVERS.add(new LocalS3());
        }
    }

    @AfterAll
    static void stop() {
        SERVERS.forEach(LocalS3::close);
        SERVERS.clear();
    }

    /** Five repositories over the three servers, each under a key prefix of its own. */
    private static List<S3Repository> repositories() {
        List<S3Repository> repositories = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            repositories.add(SERVERS.get(i % 3).repository("r" + i).build());
        }
        return repositories;
    }

    /** Every object key of a server's bucket, as a raw client lists them. */
    private static List<String> objects(LocalS3 server) {
        try (S3Client raw = S3Client.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1)
                .forcePathStyle(true).requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(LocalS3.ACCESS_KEY,
                        LocalS3.SECRET_KEY))).build()) {
            return raw.listObjectsV2Paginator(b -> b.bucket(LocalS3.BUCKET)).contents().stream().map(S3Object::key)
                    .toList();
        }
    }

    private static List<String> allObjects() {
        List<String> all = new ArrayList<>();
        SERVERS.forEach(server -> all.addAll(objects(server)));
        return all;
    }

    @Test
    void a_job_deleted_leaves_no_object_on_any_server_and_other_jobs_stay() {
        List<S3Repository> repositories = repositories();
        try {
            CheckpointStore first = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories)
                    .random(new SplittableRandom(1)).build();
            first.commit("p-1", ProcessCheckpoint.of(10, new byte[5000]));
            first.commit("p-2", ProcessCheckpoint.of(4, new byte[] {4}));
            // A second writer (a restart) under a greater epoch.
            CheckpointStore second = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories)
                    .random(new SplittableRandom(2)).build();
            second.commit("p-1", ProcessCheckpoint.of(20, new byte[7000]));
            assertEquals(ProcessCheckpoint.of(20, new byte[7000]), first.recoverProcess("p-1").orElseThrow());
            List<String> before = allObjects();
            assertTrue(before.stream().anyMatch(key -> key.contains("/p-1.")));

            int deleted = second.deleteJob("p-1");
            List<String> after = allObjects();
            assertEquals(before.stream().filter(key -> key.contains("/p-1.")).count(), deleted);
            assertEquals(before.stream().filter(key -> !key.contains("/p-1.")).toList(), after);
            assertFalse(after.isEmpty(), "job p-2 keeps its objects");
            assertTrue(second.recoverProcess("p-1").isEmpty());
            second.deleteJob("p-2");
            assertEquals(List.of(), allObjects().stream().filter(key -> repositories.stream()
                    .anyMatch(r -> key.startsWith(r.keyPrefix()))).toList());
        } finally {
            repositories.forEach(S3Repository::close);
        }
    }

    @Test
    void a_recovery_that_reaches_no_server_names_each_ones_cause() throws Exception {
        LocalS3 stopped = new LocalS3();
        try {
            List<S3Repository> repositories = new ArrayList<>();
            repositories.add(stopped.repository("down").maxAttempts(1).build());
            repositories.add(SERVERS.get(0).repository("wrong-key").credentials("nobody", "nothing").build());
            repositories.add(S3Repository.builder("no-such-bucket").endpoint(SERVERS.get(1).endpoint())
                    .pathStyle(true).credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY).id("no-bucket").build());
            stopped.stop();
            CheckpointStore store = CheckpointStore.ephemeral(repositories).build();
            RepositoriesUnreachableException e = assertThrows(RepositoriesUnreachableException.class,
                    () -> store.recoverProcess("p-9"));
            Map<String, Throwable> causes = e.causes();
            assertEquals(List.of("down", "wrong-key", "no-bucket"), List.copyOf(causes.keySet()));
            assertTrue(e.getMessage().startsWith("no committed checkpoint of p-9 was found, but repositories [down, "
                    + "wrong-key, no-bucket] that may hold one are unreachable (down: repository down is "
                    + "unavailable: "),
                    e.getMessage());
            assertTrue(causes.get("wrong-key").getMessage().contains("the access key id was refused"),
                    causes.get("wrong-key").getMessage());
            assertTrue(causes.get("no-bucket").getMessage().contains("bucket no-such-bucket does not exist"),
                    causes.get("no-bucket").getMessage());
            repositories.forEach(S3Repository::close);
        } finally {
            stopped.close();
        }
    }
}
