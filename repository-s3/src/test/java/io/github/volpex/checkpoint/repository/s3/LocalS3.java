package io.github.volpex.checkpoint.repository.s3;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * An S3 server in this JVM: S3Proxy over an in-memory blob store, on loopback and an ephemeral port, with
 * credentials {@link #ACCESS_KEY}/{@link #SECRET_KEY} and one bucket, {@link #BUCKET}. It can be stopped and started
 * again on the same port with the same data, like a storage host that goes away and comes back. Always close it.
 */
final class LocalS3 implements AutoCloseable {

    static final String ACCESS_KEY = "access";
    static final String SECRET_KEY = "secret";
    static final String BUCKET = "checkpoints";
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    private final BlobStore blobStore;
    private S3Proxy proxy;
    private int port;

    private final AuthenticationType authentication;

    /** A server that checks the requests' signatures. */
    LocalS3() throws Exception {
        this(AuthenticationType.AWS_V2_OR_V4);
    }

    /** A server with the given authentication: {@code NONE} lets a proxy in front of it rewrite requests. */
    LocalS3(AuthenticationType authentication) throws Exception {
        this.authentication = authentication;
        this.blobStore = BlobStores.create("transient", new Properties());
        blobStore.createContainer(BUCKET);
        start(0);
    }

    /** Stores an object directly in the blob store, past the server: fast fixtures. */
    void putDirect(String objectKey, byte[] content) {
        blobStore.putBlob(PutObjectRequest.builder().bucket(BUCKET).key(objectKey).contentLength((long) content.length)
                .build(), new ByteArrayInputStream(content));
    }

    /** Deletes an object directly in the blob store. */
    void removeDirect(String objectKey) {
        blobStore.removeBlob(BUCKET, objectKey);
    }

    private void start(int requestedPort) throws Exception {
        S3Proxy.Builder builder = S3Proxy.builder().blobStore(blobStore)
                .endpoint(URI.create("http://127.0.0.1:" + requestedPort));
        if (authentication != AuthenticationType.NONE) {
            builder.awsAuthentication(authentication, ACCESS_KEY, SECRET_KEY);
        }
        proxy = builder
                .stopTimeout(0)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(1);
        }
        port = proxy.getPort();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Stops the server: calls to it are refused until {@link #restart()}; what it stored is kept. */
    void stop() throws Exception {
        if (proxy != null) {
            proxy.stop();
            proxy = null;
        }
    }

    /** Starts the server again on the same port with the same data. */
    void restart() throws Exception {
        if (proxy == null) {
            start(port);
        }
    }

    boolean running() {
        return proxy != null;
    }

    /** A repository builder for this server, with short timeouts, under a key prefix no other test uses. */
    S3Repository.Builder repository(String id) {
        return S3Repository.builder(BUCKET).endpoint(endpoint()).pathStyle(true).credentials(ACCESS_KEY, SECRET_KEY)
                .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(30)).maxAttempts(2)
                .keyPrefix("t" + PREFIXES.incrementAndGet() + "/").id(id);
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (Exception e) {
            throw new IllegalStateException("S3Proxy did not stop", e);
        } finally {
            blobStore.close();
        }
    }
}
