package io.github.volpex.benchmarks.s3;

import io.github.volpex.checkpoint.repository.s3.S3Repository;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3Proxy servers on loopback (ephemeral ports, in-memory blob stores, one bucket each), optionally each behind a
 * {@link ThrottledRelay}, with one {@link S3Repository} per endpoint and plain SDK clients for the baselines.
 * {@link #close()} closes the clients, the relays and the servers, in that order.
 */
final class S3Endpoints implements AutoCloseable {

    static final String BUCKET = "checkpoints";
    private static final String ACCESS = "access";
    private static final String SECRET = "secret";

    private final List<BlobStore> blobStores = new ArrayList<>();
    private final List<S3Proxy> servers = new ArrayList<>();
    private final List<ThrottledRelay> relays = new ArrayList<>();
    private final List<S3Repository> repositories = new ArrayList<>();
    private final List<S3Client> clients = new ArrayList<>();

    private S3Endpoints() {
    }

    /**
     * Starts {@code count} servers, and a repository on each.
     *
     * @param count          the number of endpoints
     * @param bytesPerSecond the rate of each connection to an endpoint, each direction; 0 for a relay that only
     *                       counts, negative for no relay (clients talk to the servers directly)
     * @param uploads        where the repositories upload parts while the next is filled, or null for the writer's
     *                       thread ({@link S3Repository.Builder#uploadExecutor})
     * @return the endpoints
     * @throws Exception if a server does not start
     */
    static S3Endpoints start(int count, long bytesPerSecond, Executor uploads) throws Exception {
        return start(count, bytesPerSecond, uploads, S3Repository.DEFAULT_PART_BYTES);
    }

    /**
     * Starts {@code count} servers, and a repository on each with the given part size.
     *
     * @param count          the number of endpoints
     * @param bytesPerSecond as for {@link #start(int, long, Executor)}
     * @param uploads        as for {@link #start(int, long, Executor)}
     * @param partBytes      the repositories' part size ({@link S3Repository.Builder#partBytes})
     * @return the endpoints
     * @throws Exception if a server does not start
     */
    static S3Endpoints start(int count, long bytesPerSecond, Executor uploads, int partBytes) throws Exception {
        S3Endpoints endpoints = new S3Endpoints();
        try {
            for (int i = 0; i < count; i++) {
                BlobStore blobs = BlobStores.create("transient", new Properties());
                endpoints.blobStores.add(blobs);
                blobs.createContainer(BUCKET);
                S3Proxy server = S3Proxy.builder().blobStore(blobs).endpoint(URI.create("http://127.0.0.1:0"))
                        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS, SECRET).stopTimeout(0).build();
                endpoints.servers.add(server);
                server.start();
                while (!"STARTED".equals(server.getState())) {
                    Thread.sleep(1);
                }
                if (bytesPerSecond >= 0) {
                    endpoints.relays.add(new ThrottledRelay(server.getPort(), bytesPerSecond));
                }
                S3Repository.Builder builder = S3Repository.builder(BUCKET).endpoint(endpoints.endpoint(i))
                        .pathStyle(true).credentials(ACCESS, SECRET).id("s3-" + i)
                        .timeouts(Duration.ofSeconds(5), Duration.ofMinutes(5), Duration.ofMinutes(10))
                        .partBytes(partBytes);
                endpoints.repositories.add((uploads == null ? builder
                        : builder.uploadExecutor(uploads).streamPromisedLengths(true)).build());
            }
        } catch (Exception | Error e) {
            endpoints.close();
            throw e;
        }
        return endpoints;
    }

    /** The URI clients use for endpoint {@code i}: its relay's, or its server's. */
    URI endpoint(int i) {
        int port = relays.isEmpty() ? servers.get(i).getPort() : relays.get(i).port();
        return URI.create("http://127.0.0.1:" + port);
    }

    /** The repositories, one per endpoint. */
    List<S3Repository> repositories() {
        return repositories;
    }

    /** A plain SDK client on endpoint {@code i}, with the SDK's default checksums; closed by {@link #close()}. */
    S3Client plainClient(int i) {
        S3Client client = S3Client.builder().endpointOverride(endpoint(i)).region(Region.US_EAST_1)
                .forcePathStyle(true).httpClientBuilder(Apache5HttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS, SECRET)))
                .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofMinutes(10))
                        .apiCallAttemptTimeout(Duration.ofMinutes(5))).build();
        clients.add(client);
        return client;
    }

    /** The bytes every relay carried towards its server so far: what clients wrote, requests' headers included. */
    long upstreamBytes() {
        return relays.stream().mapToLong(ThrottledRelay::upstreamBytes).sum();
    }

    @Override
    public void close() throws IOException {
        clients.forEach(S3Client::close);
        repositories.forEach(S3Repository::close);
        for (ThrottledRelay relay : relays) {
            relay.close();
        }
        for (S3Proxy server : servers) {
            try {
                server.stop();
            } catch (Exception e) {
                throw new IOException("a server did not stop", e);
            }
        }
        blobStores.forEach(BlobStore::close);
    }
}
