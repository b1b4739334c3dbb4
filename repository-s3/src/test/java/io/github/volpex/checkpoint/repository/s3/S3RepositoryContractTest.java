package io.github.volpex.checkpoint.repository.s3;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.testkit.FragmentRepositoryContract;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The repository contract against S3 (S3Proxy in this JVM), with the default part size: the contract's values longer
 * than 8 MiB are multipart uploads that end with a partial part. (S3RepositoryTest covers the smallest part size.)
 */
class S3RepositoryContractTest extends FragmentRepositoryContract {

    private static LocalS3 s3;
    private static final List<S3Repository> OPENED = new ArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        s3 = new LocalS3();
    }

    @AfterAll
    static void stopServer() throws Exception {
        OPENED.forEach(S3Repository::close);
        s3.close();
    }

    @Override
    protected FragmentRepository newRepository(String id) {
        S3Repository repository = s3.repository(id).build();
        OPENED.add(repository);
        return repository;
    }
}
