package io.github.volpex.checkpoint.repository.s3;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.testkit.FragmentRepositoryContract;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The repository contract against S3 (S3Proxy in this JVM) with an upload executor: values of promised length longer
 * than the part size are sent as one streamed {@code PutObject}, the others' parts uploaded while the next is filled.
 */
class S3StreamingContractTest extends FragmentRepositoryContract {

    private static LocalS3 s3;
    private static ExecutorService uploads;
    private static final List<S3Repository> OPENED = new ArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        s3 = new LocalS3();
        uploads = Executors.newFixedThreadPool(3);
    }

    @AfterAll
    static void stopServer() throws Exception {
        OPENED.forEach(S3Repository::close);
        uploads.shutdownNow();
        s3.close();
    }

    @Override
    protected FragmentRepository newRepository(String id) {
        S3Repository repository = s3.repository(id).uploadExecutor(uploads).streamPromisedLengths(true).build();
        OPENED.add(repository);
        return repository;
    }
}
