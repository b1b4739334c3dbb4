package io.github.volpex.examples.cluster;

import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;

/**
 * A volatile storage host: an S3 server (S3Proxy) whose objects live in its memory only, serving one bucket with
 * signed requests. {@link #depart()} stops it and drops everything it held; {@link #rejoin()} serves an empty bucket
 * on the same port again, as the empty host that takes a departed one's place. Not thread-safe: one owner calls it.
 */
final class S3Server implements AutoCloseable {

    private final String address;
    private final String bucket;
    private final S3Credentials credentials;
    private BlobStore store;
    private S3Proxy proxy;
    private int port;

    private S3Server(String address, String bucket, S3Credentials credentials) {
        this.address = address;
        this.bucket = bucket;
        this.credentials = credentials;
    }

    /**
     * Starts a server.
     *
     * @param address     the address to bind, such as {@code 127.0.0.1}
     * @param port        the port, 0 for any free one
     * @param bucket      the bucket it serves
     * @param credentials the credentials requests must be signed with
     * @return the serving server
     * @throws IllegalStateException if it did not start within 30 s (the port is taken, say)
     */
    static S3Server start(String address, int port, String bucket, S3Credentials credentials) {
        S3Server server = new S3Server(address, bucket, credentials);
        server.serve(port);
        return server;
    }

    private void serve(int requestedPort) {
        store = BlobStores.create("transient", new Properties());
        store.createContainer(bucket);
        proxy = S3Proxy.builder().blobStore(store)
                .endpoint(URI.create("http://" + address + ":" + requestedPort))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, credentials.accessKeyId(),
                        credentials.secretAccessKey())
                .stopTimeout(0)
                .build();
        try {
            proxy.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!"STARTED".equals(proxy.getState())) {
                if (System.nanoTime() - deadline > 0 || "FAILED".equals(proxy.getState())) {
                    throw new IllegalStateException("S3Proxy did not start on " + address + ":" + requestedPort + ": "
                            + proxy.getState());
                }
                Thread.sleep(2);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            depart();
            throw new IllegalStateException("interrupted while S3Proxy started", e);
        } catch (Exception e) {
            depart();
            throw new IllegalStateException("S3Proxy did not start on " + address + ":" + requestedPort + ": " + e, e);
        }
        port = proxy.getPort();
    }

    /** The port it serves on. */
    int port() {
        return port;
    }

    /** Its endpoint. */
    URI endpoint() {
        return URI.create("http://" + address + ":" + port);
    }

    /** Stops serving and drops every object: connections are refused until {@link #rejoin()}. */
    void depart() {
        try {
            if (proxy != null) {
                proxy.stop();
            }
        } catch (Exception e) {
            throw new IllegalStateException("S3Proxy on port " + port + " did not stop", e);
        } finally {
            proxy = null;
            if (store != null) {
                store.close();
                store = null;
            }
        }
    }

    /** Serves an empty bucket on the same port again. */
    void rejoin() {
        if (proxy == null) {
            serve(port);
        }
    }

    @Override
    public void close() {
        depart();
    }
}
