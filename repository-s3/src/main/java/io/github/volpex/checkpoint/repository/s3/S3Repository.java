package io.github.volpex.checkpoint.repository.s3;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * A {@link FragmentRepository} on Amazon S3 or any S3-compatible object store (MinIO, Ceph RGW, Garage, S3Proxy, …):
 * one object per key, under a key prefix of one bucket. See the package documentation for how the checkpoint store's
 * protocol maps onto S3.
 *
 * <pre>{@code
 * S3Repository repository = S3Repository.builder("checkpoints")
 *         .endpoint(URI.create("https://s3.example.org")).region("eu-west-1").pathStyle(true)
 *         .credentials(accessKeyId, secretAccessKey)
 *         .keyPrefix("grid-7/").id("s3-example")
 *         .build();
 * }</pre>
 *
 * <p>Or give it an {@link S3Client} configured as you already do ({@link Builder#client}): the repository then uses
 * that client's timeouts and retries and does not close it.
 *
 * <p><b>Writes.</b> A value up to the multipart threshold is one {@code PutObject}; a longer streamed value becomes a
 * multipart upload, one part buffered at a time, completed on {@link FragmentOutput#commit()} and aborted when the
 * output is closed without it. Either way a value appears whole or not at all. Given an
 * {@linkplain Builder#uploadExecutor upload executor} (the checkpoint store's own will do), a full part is uploaded
 * there while the writer fills the next one, so that a checkpoint's encoding and its upload overlap; two parts are
 * then buffered per streaming write. Bodies are sent from the repository's buffers or the caller's array, not copied.
 * A value whose length the writer promises ({@link #create(String, long)}, which the checkpoint store uses when it
 * knows a fragment's length) and which is longer than a part is sent instead as one {@code PutObject} from the first
 * byte written, through a buffer of {@value #STREAM_BUFFER_BYTES} bytes, when there is an upload executor and
 * {@link Builder#streamPromisedLengths} is on (off by default: see there what such a request risks on links that
 * stall).
 *
 * <p><b>Integrity.</b> A value written with one {@code PutObject} carries its CRC32C as the checksum S3 verifies
 * before storing it and in its metadata; every download of it is checked against that CRC32C at the end of the body
 * (and by the client too, where the server returns the checksum). A value uploaded in parts is checked part by part
 * on upload, a value streamed in one {@code PutObject} by the CRC32C of its body (a trailer S3 checks before it
 * stores the object), and either is checked for its length only on download. See the package documentation.
 *
 * <p><b>Failures.</b> Transport failures, timeouts, throttling and server errors that outlast the client's retries,
 * requests damaged on the way on every attempt, a missing bucket (for every call, deletes included) and refused
 * credentials all become a {@link RepositoryUnavailableException} whose message says which; a body shorter than
 * announced, or whose CRC32C does not match, is an {@link IOException}. Nothing is returned that did not arrive whole.
 *
 * <p>Thread-safe. {@link #close()} closes the client only if the repository built it.
 *
 * @since 0.1
 */
public final class S3Repository implements FragmentRepository, AutoCloseable {

    /** The default multipart threshold and part size: 8 MiB. */
    public static final int DEFAULT_PART_BYTES = 8 << 20;
    /** The smallest part S3 accepts (except the last): 5 MiB. */
    public static final int MIN_PART_BYTES = 5 << 20;

    /** The longest value one {@code PutObject} may carry: 5 GiB. */
    static final long MAX_PUT_BYTES = 5L << 30;
    /** The bytes a streamed {@code PutObject} holds that its request has not sent yet. */
    static final int STREAM_BUFFER_BYTES = 1 << 20;
    /** How many times {@link #get} asks for a value whose body does not arrive whole. */
    static final int DOWNLOAD_ATTEMPTS = 3;
    /** The user metadata ({@code x-amz-meta-…}) that holds a whole upload's CRC32C, as 8 hexadecimal digits. */
    static final String CRC32C_METADATA = "volpex-crc32c";
    /**
     * The error codes of a request the server received damaged — its payload hash, content checksum or signature does
     * not match what arrived — which a new attempt may get through.
     */
    private static final Set<String> DAMAGED_ON_THE_WAY = Set.of("SignatureDoesNotMatch",
            "XAmzContentSHA256Mismatch", "BadDigest", "InvalidDigest", "IncompleteBody");

    private final String id;
    private final S3Client client;
    private final boolean ownsClient;
    private final String bucket;
    private final String keyPrefix;
    private final int partBytes;
    /** Where parts of a multipart upload are uploaded while the next is filled; null for the writer's thread. */
    private final Executor uploadExecutor;
    /** Whether a value of promised length goes as one streamed {@code PutObject}. */
    private final boolean streamPromisedLengths;
    /** The time a streamed {@code PutObject} may take per part's worth of its bytes; null: the client's limits. */
    private final Duration streamedAttemptTimeoutPerPart;

    private S3Repository(Builder builder, S3Client client, boolean ownsClient) {
        this.id = builder.id != null ? builder.id : builder.bucket + "/" + builder.keyPrefix;
        this.client = client;
        this.ownsClient = ownsClient;
        this.bucket = builder.bucket;
        this.keyPrefix = builder.keyPrefix;
        this.partBytes = builder.partBytes;
        this.uploadExecutor = builder.uploadExecutor;
        this.streamPromisedLengths = builder.streamPromisedLengths;
        this.streamedAttemptTimeoutPerPart = ownsClient ? builder.attemptTimeout : null;
    }

    /**
     * Starts configuring a repository on {@code bucket}.
     *
     * @param bucket the bucket's name, which must exist
     * @return a builder
     * @throws NullPointerException     if {@code bucket} is null
     * @throws IllegalArgumentException if {@code bucket} is empty
     */
    public static Builder builder(String bucket) {
        Objects.requireNonNull(bucket, "bucket");
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("bucket must not be empty");
        }
        return new Builder(bucket);
    }

    @Override
    public String id() {
        return id;
    }

    /**
     * Returns the bucket.
     *
     * @return the bucket's name
     */
    public String bucket() {
        return bucket;
    }

    /**
     * Returns the prefix of every object key this repository uses.
     *
     * @return the prefix, possibly empty
     */
    public String keyPrefix() {
        return keyPrefix;
    }

    private String objectKey(String key) {
        return keyPrefix + FragmentRepository.requireValidKey(key);
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        String objectKey = objectKey(key);
        Objects.requireNonNull(content, "content");
        if (content.length > partBytes) {
            try (FragmentOutput out = new Upload(key, objectKey, content.length)) {
                out.write(content);
                out.commit();
            }
            return;
        }
        putWhole(key, objectKey, content, content.length, "put ");
    }

    /**
     * One {@code PutObject} of a whole value ({@code length} bytes of {@code content}), with its CRC32C as the checksum
     * S3 verifies before storing it and as metadata that downloads verify against.
     */
    private void putWhole(String key, String objectKey, byte[] content, int length, String what) throws IOException {
        CRC32C crc = new CRC32C();
        crc.update(content, 0, length);
        int value = (int) crc.getValue();
        String checksum = Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt(value).array());
        call(what + key, () -> client.putObject(b -> b.bucket(bucket).key(objectKey).checksumCRC32C(checksum)
                .metadata(Map.of(CRC32C_METADATA, hex(value))), body(content, length)));
    }

    /**
     * The first {@code length} bytes of {@code bytes} as a request body, without the copy {@link RequestBody#fromBytes}
     * makes: the caller leaves them alone until the call returns (every attempt reads them afresh).
     */
    private static RequestBody body(byte[] bytes, int length) {
        return RequestBody.fromContentProvider(() -> new ByteArrayInputStream(bytes, 0, length), length,
                "application/octet-stream");
    }

    private static String hex(int crc) {
        String digits = Integer.toHexString(crc);
        return "0".repeat(8 - digits.length()) + digits;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A body that does not arrive whole — cut short, failing on the way, or not matching its CRC32C — is asked for
     * again, {@value #DOWNLOAD_ATTEMPTS} times in all: it may have been damaged on the way, or (on a server that
     * reads an object's metadata and its body apart) replaced while it was read.
     */
    @Override
    public Optional<byte[]> get(String key) throws IOException {
        String objectKey = objectKey(key);
        for (int attempt = 1; ; attempt++) {
            Optional<InputStream> in = open(key, objectKey);
            if (in.isEmpty()) {
                return Optional.empty();
            }
            try (InputStream stream = in.get()) {
                return Optional.of(stream.readAllBytes());
            } catch (DamagedBodyException e) {
                if (attempt == DOWNLOAD_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    @Override
    public Optional<InputStream> open(String key) throws IOException {
        return open(key, objectKey(key));
    }

    private Optional<InputStream> open(String key, String objectKey) throws IOException {
        ResponseInputStream<GetObjectResponse> response;
        try {
            response = call("get " + key, () -> client.getObject(b -> b.bucket(bucket).key(objectKey)
                    .checksumMode(ChecksumMode.ENABLED)));
        } catch (NoSuchKeyIOException e) {
            return Optional.empty();
        }
        Long length = response.response().contentLength();
        String crc = response.response().metadata().get(CRC32C_METADATA);
        Integer expectedCrc = null;
        if (crc != null && crc.length() == 8) {
            try {
                expectedCrc = Integer.parseUnsignedInt(crc, 16);
            } catch (NumberFormatException e) {
                // Not written by this repository: nothing to check against.
            }
        }
        return Optional.of(new CheckedStream(response, length == null ? -1 : length, expectedCrc, key));
    }

    @Override
    public boolean delete(String key) throws IOException {
        String objectKey = objectKey(key);
        try {
            call("delete " + key, () -> client.headObject(b -> b.bucket(bucket).key(objectKey)));
        } catch (NoSuchKeyIOException e) {
            // A 404 to HEAD says no more than "not found": the key, or the bucket itself?
            call("delete " + key, () -> client.headBucket(b -> b.bucket(bucket)));
            return false;
        }
        call("delete " + key, () -> client.deleteObject(b -> b.bucket(bucket).key(objectKey)));
        return true;
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        Objects.requireNonNull(prefix, "prefix");
        TreeSet<String> keys = new TreeSet<>();
        String token = null;
        do {
            String continuation = token;
            ListObjectsV2Request request = ListObjectsV2Request.builder().bucket(bucket).prefix(keyPrefix + prefix)
                    .continuationToken(continuation).build();
            ListObjectsV2Response page = call("list " + prefix, () -> client.listObjectsV2(request));
            for (S3Object object : page.contents()) {
                String key = object.key().substring(keyPrefix.length());
                if (FragmentRepository.isValidKey(key)) {
                    keys.add(key);
                }
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        return Collections.unmodifiableList(new ArrayList<>(keys));
    }

    @Override
    public FragmentOutput create(String key) throws IOException {
        return new Upload(key, objectKey(key), -1);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Given an {@linkplain Builder#uploadExecutor upload executor} and {@link Builder#streamPromisedLengths} on, a
     * value longer than the part size (up to 5 GiB,
     * S3's limit for one {@code PutObject}) is sent as one {@code PutObject} whose {@code Content-Length} is
     * {@code lengthBytes}, starting with the first bytes written: the upload runs on the executor and reads from a
     * buffer of at most 1 MiB that the writer fills (the writer waits while it is full), and its last byte is held back
     * until {@link FragmentOutput#commit()}, so the object cannot appear before the commit; closing without it ends
     * the request with the body incomplete, which S3 never stores. The body carries its CRC32C as a trailer S3 checks
     * on arrival. Such a request cannot be sent again (its bytes are gone), so a failure of it fails the write, which
     * the checkpoint store places elsewhere. If the executor has not started the upload by the time the buffer is
     * full, the write goes on as {@link #create(String)}'s. Other values are written as by {@link #create(String)},
     * with the promise checked.
     */
    @Override
    public FragmentOutput create(String key, long lengthBytes) throws IOException {
        String objectKey = objectKey(key);
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("lengthBytes must be >= 0: " + lengthBytes);
        }
        if (!streamPromisedLengths || uploadExecutor == null || lengthBytes <= partBytes
                || lengthBytes > MAX_PUT_BYTES) {
            // As create(key), with the promise checked and the buffers sized from the length.
            return FragmentOutput.checkingLength(key, lengthBytes, new Upload(key, objectKey, lengthBytes));
        }
        return FragmentOutput.checkingLength(key, lengthBytes, new StreamedPut(key, objectKey, lengthBytes));
    }

    /**
     * Closes the client if this repository built it; a client given to the builder is left open. Idempotent.
     */
    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "S3Repository[" + id + ", s3://" + bucket + "/" + keyPrefix + "]";
    }

    /** An S3 call. */
    @FunctionalInterface
    private interface S3Call<T> {
        T run();
    }

    /** "No such key", as an {@link IOException} the callers above turn into an empty answer. */
    private static final class NoSuchKeyIOException extends IOException {
        private static final long serialVersionUID = 1L;

        NoSuchKeyIOException(Throwable cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** Runs an S3 call, mapping the SDK's failures to what the store handles. */
    private <T> T call(String what, S3Call<T> call) throws IOException {
        try {
            return call.run();
        } catch (NoSuchKeyException e) {
            throw new NoSuchKeyIOException(e);
        } catch (NoSuchBucketException e) {
            throw new RepositoryUnavailableException(id, "bucket " + bucket + " does not exist (" + what + ")", e);
        } catch (S3Exception e) {
            throw failure(what, e);
        } catch (AbortedException e) {
            InterruptedIOException interrupted = new InterruptedIOException(what + " on " + id + " was interrupted");
            interrupted.initCause(e);
            throw interrupted;
        } catch (SdkClientException e) {
            throw new RepositoryUnavailableException(id, what + " failed: " + e.getMessage(), e);
        } catch (SdkException e) {
            throw new IOException(what + " on " + id + " failed: " + e.getMessage(), e);
        }
    }

    private IOException failure(String what, S3Exception e) {
        int status = e.statusCode();
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        if (status == 404 && (what.startsWith("get ") || what.startsWith("delete ")) && !"NoSuchBucket".equals(code)) {
            return new NoSuchKeyIOException(e);
        }
        if ("NoSuchBucket".equals(code)) {
            return new RepositoryUnavailableException(id, "bucket " + bucket + " does not exist (" + what + ")", e);
        }
        if (damaged(code)) {
            return new RepositoryUnavailableException(id, what + " was rejected as damaged (" + code + ", HTTP "
                    + status + ") on every attempt: either the request changed on the way (a faulty network, proxy "
                    + "or disk), or" + ("SignatureDoesNotMatch".equals(code) ? " the secret access key is wrong"
                    : " the server computes it differently"), e);
        }
        if ("InvalidAccessKeyId".equals(code)) {
            return new RepositoryUnavailableException(id, "the access key id was refused (" + code + "): check the "
                    + "credentials (" + what + ")", e);
        }
        if (status == 403) {
            return new RepositoryUnavailableException(id, "access to bucket " + bucket + " was refused (" + code
                    + "): check the bucket's policy and the key's permissions (" + what + ")", e);
        }
        if (status == 503 || status == 500 || status == 429) {
            return new RepositoryUnavailableException(id, what + " failed after the client's retries: HTTP "
                    + status + " " + code, e);
        }
        return new RepositoryUnavailableException(id, what + " failed: HTTP " + status + " " + code + ": "
                + e.getMessage(), e);
    }

    /** Whether an error code says that the server received the request damaged. */
    private static boolean damaged(String code) {
        return code != null && DAMAGED_ON_THE_WAY.contains(code);
    }

    /**
     * Whether a failed attempt is worth another although the SDK's standard strategy gives up on it: the server
     * rejected the request as damaged on the way (its body or signature does not match what arrived), or the answer
     * could not be read (a response cut short, an unreadable listing or upload id).
     */
    static boolean damagedOnTheWay(Throwable failure) {
        if (failure instanceof S3Exception e) {
            return e.awsErrorDetails() != null && damaged(e.awsErrorDetails().errorCode());
        }
        if (!(failure instanceof SdkClientException) || failure instanceof AbortedException) {
            return false;
        }
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedIOException) {
                return false;
            }
            if (cause instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * A download that fails instead of ending early when the body is shorter than announced, and, for a value stored
     * with its CRC32C in metadata, when the bytes received do not match it.
     */
    private static final class CheckedStream extends FilterInputStream {
        private final long expected;
        private final Integer expectedCrc;
        private final String key;
        private final CRC32C crc = new CRC32C();
        private long read;

        CheckedStream(InputStream in, long expected, Integer expectedCrc, String key) {
            super(in);
            this.expected = expected;
            this.expectedCrc = expectedCrc;
            this.key = key;
        }

        @Override
        public int read() throws IOException {
            int b;
            try {
                b = super.read();
            } catch (SdkException | IOException e) {
                throw damaged(e);
            }
            if (b < 0) {
                checkEnd();
            } else {
                crc.update(b);
                read++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n;
            try {
                n = super.read(b, off, len);
            } catch (SdkException | IOException e) {
                throw damaged(e);
            }
            if (n < 0) {
                checkEnd();
            } else {
                crc.update(b, off, n);
                read += n;
            }
            return n;
        }

        /** Skips by reading, so that every byte is counted and checked. */
        @Override
        public long skip(long n) throws IOException {
            byte[] buffer = new byte[(int) Math.min(8192, Math.max(0, n))];
            long skipped = 0;
            while (skipped < n) {
                int r = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
                if (r < 0) {
                    break;
                }
                skipped += r;
            }
            return skipped;
        }

        /** A failure while the body arrives, an interruption excepted (it is passed on as it is). */
        private IOException damaged(Exception e) {
            if (e instanceof InterruptedIOException interrupted) {
                return interrupted;
            }
            return new DamagedBodyException("reading " + key + " failed after " + read + " bytes: " + e.getMessage(),
                    e);
        }

        private void checkEnd() throws IOException {
            if (expected >= 0 && read != expected) {
                throw new DamagedBodyException(key + " ended after " + read + " of " + expected + " bytes", null);
            }
            if (expectedCrc != null && (int) crc.getValue() != expectedCrc) {
                throw new DamagedBodyException(key + ": the " + read + " bytes received do not match the CRC32C the "
                        + "value was stored with (" + hex(expectedCrc) + ", received " + hex((int) crc.getValue())
                        + "): they changed on the way", null);
            }
        }
    }

    /** A body that did not arrive whole: cut short, failing on the way, or not matching its checksum. */
    private static final class DamagedBodyException extends IOException {
        private static final long serialVersionUID = 1L;

        DamagedBodyException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Rethrows what an upload of {@code key} on another thread failed with, if anything. */
    private static void rethrow(Throwable failure, String key) throws IOException {
        if (failure instanceof IOException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new IOException("write " + key + " failed: " + failure, failure);
        }
    }

    /** Waits until {@code latch} opens, keeping (not acting on) an interrupt. */
    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A value of known length sent as one {@code PutObject} from the first bytes written: the request runs on the
     * upload executor and reads its body from a {@link BytePipe}; its last byte is released on commit. If the
     * executor has not started the request when the pipe is full, the bytes written so far move to an {@link Upload}
     * and the write goes on there.
     */
    private final class StreamedPut extends FragmentOutput {
        private final String key;
        private final String objectKey;
        private final long lengthBytes;
        private final BytePipe pipe;
        private final Request request = new Request();
        /** Where the write goes on if the executor did not start the request in time; null while streaming. */
        private Upload fallback;

        StreamedPut(String key, String objectKey, long lengthBytes) {
            this.key = key;
            this.objectKey = objectKey;
            this.lengthBytes = lengthBytes;
            this.pipe = new BytePipe(key, lengthBytes, (int) Math.min(lengthBytes, STREAM_BUFFER_BYTES));
            request.submit();
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            while (len > 0) {
                if (fallback != null) {
                    fallback.write(b, off, len);
                    return;
                }
                int n = pipe.offer(b, off, len);
                off += n;
                len -= n;
                if (len > 0 && n == 0) {
                    if (request.claim()) {
                        fallback = new Upload(key, objectKey, lengthBytes);
                        fallback.write(pipe.unread());
                    } else {
                        pipe.awaitRoom();
                    }
                }
            }
        }

        @Override
        protected void publish() throws IOException {
            // FragmentOutput.checkingLength, around this output, saw every promised byte written.
            if (fallback != null) {
                fallback.commit();
                return;
            }
            pipe.release();
            if (request.claim()) {
                // Everything is in the pipe (it never filled): send it from here.
                request.send();
            }
            request.await();
            rethrow(request.failure, key);
        }

        @Override
        protected void discard() throws IOException {
            if (fallback != null) {
                fallback.close();
                return;
            }
            pipe.abort("the write of " + key + " was abandoned before its commit");
            if (!request.claim()) {
                request.await();
            }
        }

        /** The {@code PutObject}: run once, by the executor or by the writer, whichever claims it first. */
        private final class Request implements Runnable {
            private final AtomicBoolean claimed = new AtomicBoolean();
            private final CountDownLatch done = new CountDownLatch(1);
            /** The thread inside {@link Executor#execute}: one that runs the request there must not claim it. */
            private volatile Thread submitting;
            /** What the request failed with, or null; read after {@link #await()}. */
            private Throwable failure;

            void submit() {
                submitting = Thread.currentThread();
                try {
                    uploadExecutor.execute(this);
                } catch (RejectedExecutionException e) {
                    // Left unclaimed: the writer takes it over.
                } finally {
                    submitting = null;
                }
            }

            /** Claims the request for the caller; false if the executor started it first. */
            boolean claim() {
                return claimed.compareAndSet(false, true);
            }

            @Override
            public void run() {
                // Run inside execute() (a direct or caller-runs executor), it would wait for bytes not yet written.
                if (Thread.currentThread() != submitting && claim()) {
                    send();
                }
            }

            /**
             * Gives the request, which stays open from the first byte written to the commit, the time the parts of a
             * multipart upload of the same value would have had together: the attempt timeout once per part's worth
             * of bytes (the client's own timeouts would cut a long value off however fast its bytes flow).
             */
            private PutObjectRequest.Builder streamedTimeouts(PutObjectRequest.Builder request) {
                if (streamedAttemptTimeoutPerPart == null) {
                    return request;
                }
                Duration budget = streamedAttemptTimeoutPerPart.multipliedBy((lengthBytes + partBytes - 1) / partBytes);
                return request.overrideConfiguration(o -> o.apiCallAttemptTimeout(budget).apiCallTimeout(budget));
            }

            void send() {
                AtomicBoolean sent = new AtomicBoolean();
                RequestBody body = RequestBody.fromContentProvider(() -> {
                    if (!sent.compareAndSet(false, true)) {
                        throw SdkClientException.create("the body of " + key + " was streamed as it was written and "
                                + "cannot be sent again after a failed attempt");
                    }
                    return pipe.input();
                }, lengthBytes, "application/octet-stream");
                try {
                    call("write " + key, () -> client.putObject(b -> streamedTimeouts(b.bucket(bucket).key(objectKey)
                            .contentLength(lengthBytes).checksumAlgorithm(ChecksumAlgorithm.CRC32_C)), body));
                } catch (Throwable t) {
                    failure = t;
                } finally {
                    pipe.readerEnded(failure);
                    done.countDown();
                }
            }

            /** Waits until the request has ended, keeping (not acting on) an interrupt. */
            void await() {
                awaitUninterruptibly(done);
            }
        }
    }

    /**
     * A streaming write: one {@code PutObject}, or a multipart upload once more than a part is written. With an
     * upload executor, a full part is uploaded there while the writer fills the next one (at most one part in flight,
     * so two parts in memory); a part the executor has not started when the writer needs its result is uploaded on
     * the writer's thread.
     */
    private final class Upload extends FragmentOutput {
        private final String key;
        private final String objectKey;
        private byte[] buffer;
        /** The value's length when known in advance, else negative. */
        private final long lengthBytes;
        /** The bytes of the parts already handed to an upload. */
        private long flushed;
        /** The buffer of the last part uploaded, reused for the part after the next. */
        private byte[] spare;
        private int buffered;
        private String uploadId;
        private final List<CompletedPart> parts = new ArrayList<>();
        private PartUpload inFlight;

        /**
         * An upload of {@code lengthBytes} bytes, or of a length not known in advance when it is negative: a known
         * length sizes the first part's buffer at once (the smaller of a part and the length), an unknown one starts
         * at 64 KiB and doubles up to a part.
         */
        Upload(String key, String objectKey, long lengthBytes) {
            this.key = key;
            this.objectKey = objectKey;
            this.lengthBytes = lengthBytes;
            this.buffer = new byte[lengthBytes < 0 ? Math.min(partBytes, 64 * 1024) : bufferFor(lengthBytes)];
        }

        /** A buffer length for the part that starts with {@code left} bytes of a known length still to come. */
        private int bufferFor(long left) {
            return (int) Math.max(1, Math.min(partBytes, left));
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            while (len > 0) {
                if (buffered == partBytes) {
                    flushPart(false);
                }
                if (buffered == buffer.length) {
                    buffer = Arrays.copyOf(buffer, (int) Math.min(partBytes, 2L * buffer.length));
                }
                int n = Math.min(len, buffer.length - buffered);
                System.arraycopy(b, off, buffer, buffered, n);
                buffered += n;
                off += n;
                len -= n;
            }
        }

        /**
         * Uploads the buffer as the next part, starting the multipart upload first if needed: on the upload executor
         * unless it is the {@code last} part or there is none.
         */
        private void flushPart(boolean last) throws IOException {
            if (uploadId == null) {
                uploadId = call("create " + key, () -> client.createMultipartUpload(b -> b.bucket(bucket)
                        .key(objectKey).checksumAlgorithm(ChecksumAlgorithm.CRC32_C))).uploadId();
            }
            awaitInFlight();
            PartUpload part = new PartUpload(uploadId, parts.size() + 1, buffer, buffered);
            flushed += buffered;
            if (uploadExecutor == null || last) {
                part.run();
                parts.add(part.result());
            } else {
                inFlight = part;
                try {
                    uploadExecutor.execute(part);
                } catch (RejectedExecutionException e) {
                    part.run();
                }
                buffer = spare != null ? spare
                        : new byte[lengthBytes < 0 ? buffer.length : bufferFor(lengthBytes - flushed)];
                spare = null;
            }
            buffered = 0;
        }

        /** Waits for the part in flight, if any (uploading it here if it has not started), and records it. */
        private void awaitInFlight() throws IOException {
            PartUpload part = inFlight;
            if (part == null) {
                return;
            }
            inFlight = null;
            part.run();
            part.await();
            spare = part.bytes;
            parts.add(part.result());
        }

        @Override
        protected void publish() throws IOException {
            if (uploadId == null) {
                putWhole(key, objectKey, buffer, buffered, "commit ");
                return;
            }
            if (buffered > 0 || parts.isEmpty() && inFlight == null) {
                flushPart(true);
            }
            awaitInFlight();
            List<CompletedPart> completed = List.copyOf(parts);
            call("commit " + key, () -> client.completeMultipartUpload(b -> b.bucket(bucket).key(objectKey)
                    .uploadId(uploadId).multipartUpload(u -> u.parts(completed))));
            uploadId = null;
        }

        @Override
        protected void discard() throws IOException {
            buffer = null;
            spare = null;
            PartUpload part = inFlight;
            inFlight = null;
            if (part != null) {
                // Claimed here if not started; otherwise its upload must end before the abort, or it would outlive it.
                part.cancelOrAwait();
            }
            if (uploadId != null) {
                String abandoned = uploadId;
                uploadId = null;
                call("discard " + key, () -> client.abortMultipartUpload(b -> b.bucket(bucket).key(objectKey)
                        .uploadId(abandoned)));
            }
        }

        /** One part's upload: run once, by the upload executor or by the writer, whichever claims it first. */
        private final class PartUpload implements Runnable {
            private final String upload;
            private final int number;
            private final byte[] bytes;
            private final int length;
            private final AtomicBoolean claimed = new AtomicBoolean();
            private final CountDownLatch done = new CountDownLatch(1);
            private CompletedPart completed;
            private Throwable failure;

            PartUpload(String upload, int number, byte[] bytes, int length) {
                this.upload = upload;
                this.number = number;
                this.bytes = bytes;
                this.length = length;
            }

            @Override
            public void run() {
                if (!claimed.compareAndSet(false, true)) {
                    return;
                }
                try {
                    UploadPartResponse response = call("write " + key, () -> client.uploadPart(b -> b.bucket(bucket)
                            .key(objectKey).uploadId(upload).partNumber(number)
                            .checksumAlgorithm(ChecksumAlgorithm.CRC32_C), body(bytes, length)));
                    completed = CompletedPart.builder().partNumber(number).eTag(response.eTag())
                            .checksumCRC32C(response.checksumCRC32C()).build();
                } catch (Throwable t) {
                    failure = t;
                } finally {
                    done.countDown();
                }
            }

            /** Waits until the upload has ended, keeping (not acting on) an interrupt. */
            void await() {
                awaitUninterruptibly(done);
            }

            /** Keeps the executor from starting it, or waits for it to end. */
            void cancelOrAwait() {
                if (claimed.compareAndSet(false, true)) {
                    done.countDown();
                    return;
                }
                await();
            }

            /** The uploaded part; rethrows what the upload threw. Only after {@link #await()}. */
            CompletedPart result() throws IOException {
                rethrow(failure, key);
                return completed;
            }
        }
    }

    /**
     * Configures an {@link S3Repository}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        private final String bucket;
        private String id;
        private String keyPrefix = "";
        private S3Client client;
        private URI endpoint;
        private String region = "us-east-1";
        private AwsCredentialsProvider credentials;
        private boolean pathStyle;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration attemptTimeout = Duration.ofSeconds(60);
        private Duration callTimeout = Duration.ofMinutes(3);
        private int maxAttempts = 3;
        private int partBytes = DEFAULT_PART_BYTES;
        private Executor uploadExecutor;
        private boolean streamPromisedLengths;

        private Builder(String bucket) {
            this.bucket = bucket;
        }

        /**
         * Sets the identifier the checkpoint store records in fragment indexes; the default is
         * {@code <bucket>/<key prefix>}. It must stay the same across restarts and differ from every other repository
         * of the store.
         *
         * @param id 1 to 255 bytes of UTF-8
         * @return this builder
         * @throws NullPointerException     if {@code id} is null
         * @throws IllegalArgumentException if {@code id} is empty or longer than 255 bytes of UTF-8
         */
        public Builder id(String id) {
            Objects.requireNonNull(id, "id");
            this.id = checkId(id, "id must be 1 to 255 bytes of UTF-8: \"" + id + "\" has ");
            return this;
        }

        private static String checkId(String id, String message) {
            int bytes = id.getBytes(StandardCharsets.UTF_8).length;
            if (bytes == 0 || bytes > 255) {
                throw new IllegalArgumentException(message + bytes);
            }
            return id;
        }

        /**
         * Sets the prefix of every object key, so that several repositories (or other data) share a bucket; the
         * default is none.
         *
         * @param keyPrefix the prefix, at most 800 characters (S3 keys are at most 1,024 bytes)
         * @return this builder
         * @throws NullPointerException     if {@code keyPrefix} is null
         * @throws IllegalArgumentException if it is longer than 800 characters
         */
        public Builder keyPrefix(String keyPrefix) {
            Objects.requireNonNull(keyPrefix, "keyPrefix");
            if (keyPrefix.length() > 800) {
                throw new IllegalArgumentException("keyPrefix must be at most 800 characters: " + keyPrefix.length());
            }
            this.keyPrefix = keyPrefix;
            return this;
        }

        /**
         * Uses a client configured elsewhere (its endpoint, credentials, timeouts and retries); the repository does
         * not close it. The other connection settings of this builder must then be left alone. Its retry strategy
         * decides alone what is retried: the SDK's standard one gives up at once on a request damaged on the way
         * ({@code 403 SignatureDoesNotMatch}) and on an answer cut short, which the built client retries.
         *
         * @param client the client
         * @return this builder
         * @throws NullPointerException if {@code client} is null
         */
        public Builder client(S3Client client) {
            this.client = Objects.requireNonNull(client, "client");
            return this;
        }

        /**
         * Sets the endpoint of an S3-compatible store; the default is AWS's endpoint for the region.
         *
         * @param endpoint an {@code http} or {@code https} URI with a host, for example {@code http://127.0.0.1:9000}
         * @return this builder
         * @throws NullPointerException     if {@code endpoint} is null
         * @throws IllegalArgumentException if {@code endpoint} has no scheme ({@code localhost:9000} reads as the
         *                                  scheme {@code localhost}), another scheme than {@code http} or
         *                                  {@code https}, no host, a query or a fragment; the message names it
         */
        public Builder endpoint(URI endpoint) {
            Objects.requireNonNull(endpoint, "endpoint");
            String scheme = endpoint.getScheme();
            boolean web = "http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme);
            if (!web || endpoint.isOpaque() || endpoint.getHost() == null || endpoint.getRawQuery() != null
                    || endpoint.getRawFragment() != null) {
                throw new IllegalArgumentException("endpoint must be an http or https URI with a host, such as "
                        + "http://127.0.0.1:9000: \"" + endpoint + "\""
                        + (web ? "" : scheme == null ? " has no scheme" : " has the scheme \"" + scheme + "\"" + (
                                endpoint.isOpaque() ? " (a host and port with no scheme read as one: write http://"
                                        + endpoint + ")" : "")));
            }
            this.endpoint = endpoint;
            return this;
        }

        /**
         * Sets the region; the default is {@code us-east-1}, which most S3-compatible stores accept.
         *
         * @param region the region's name
         * @return this builder
         * @throws NullPointerException if {@code region} is null
         */
        public Builder region(String region) {
            this.region = Objects.requireNonNull(region, "region");
            return this;
        }

        /**
         * Sets static credentials; the default is the SDK's default chain (environment, profile files, instance
         * role).
         *
         * @param accessKeyId     the access key id
         * @param secretAccessKey the secret access key
         * @return this builder
         * @throws NullPointerException if an argument is null
         */
        public Builder credentials(String accessKeyId, String secretAccessKey) {
            this.credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create(
                    Objects.requireNonNull(accessKeyId, "accessKeyId"),
                    Objects.requireNonNull(secretAccessKey, "secretAccessKey")));
            return this;
        }

        /**
         * Chooses path-style addressing ({@code endpoint/bucket/key}) instead of virtual hosts
         * ({@code bucket.endpoint/key}); most self-hosted stores need it. The default is virtual hosts.
         *
         * @param pathStyle whether to use path-style addressing
         * @return this builder
         */
        public Builder pathStyle(boolean pathStyle) {
            this.pathStyle = pathStyle;
            return this;
        }

        /**
         * Sets the timeouts of the built client: to connect, per attempt (one HTTP exchange), and per call (all
         * attempts with their backoff). The defaults are 5 s, 60 s and 3 min.
         *
         * @param connect the connection timeout, positive
         * @param attempt the attempt timeout, positive
         * @param call    the call timeout, positive and at least {@code attempt}
         * @return this builder
         * @throws NullPointerException     if an argument is null
         * @throws IllegalArgumentException if a timeout is not positive or {@code call < attempt}
         */
        public Builder timeouts(Duration connect, Duration attempt, Duration call) {
            for (Duration d : List.of(Objects.requireNonNull(connect, "connect"),
                    Objects.requireNonNull(attempt, "attempt"), Objects.requireNonNull(call, "call"))) {
                if (d.isNegative() || d.isZero()) {
                    throw new IllegalArgumentException("timeouts must be positive: " + d);
                }
            }
            if (call.compareTo(attempt) < 0) {
                throw new IllegalArgumentException("the call timeout must be at least the attempt timeout: " + call
                        + " < " + attempt);
            }
            this.connectTimeout = connect;
            this.attemptTimeout = attempt;
            this.callTimeout = call;
            return this;
        }

        /**
         * Sets how many attempts the built client makes per call, with exponential backoff and jitter between them
         * (the SDK's standard strategy, which also retries throttling such as {@code 503 SlowDown}); the default is
         * 3.
         *
         * @param attempts in {@code [1, 10]}
         * @return this builder
         * @throws IllegalArgumentException if {@code attempts} is out of range
         */
        public Builder maxAttempts(int attempts) {
            if (attempts < 1 || attempts > 10) {
                throw new IllegalArgumentException("maxAttempts must be in [1, 10]: " + attempts);
            }
            this.maxAttempts = attempts;
            return this;
        }

        /**
         * Sets the part size of multipart uploads, which is also the threshold above which a value is uploaded in
         * parts: a streaming write holds one part in memory. The default is {@link #DEFAULT_PART_BYTES}.
         *
         * @param bytes in {@code [5 MiB, 1 GiB]}
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is out of range
         */
        public Builder partBytes(int bytes) {
            if (bytes < MIN_PART_BYTES || bytes > (1 << 30)) {
                throw new IllegalArgumentException("partBytes must be in [" + MIN_PART_BYTES + ", " + (1 << 30)
                        + "]: " + bytes);
            }
            this.partBytes = bytes;
            return this;
        }

        /**
         * Uploads each full part of a multipart upload on {@code executor} while the writer fills the next part, so
         * that a streaming write's network time overlaps with the work that produces its bytes (a checkpoint's
         * encoding): the writer waits only when the next part is full and the previous one is still on its way. At
         * most one part per upload is in flight, so a streaming write then holds two parts in memory instead of one.
         * A part the executor has not started when the writer needs its result is uploaded on the writer's thread, so
         * the executor may be the checkpoint store's own, of any size. A value of promised length longer than a part
         * ({@link S3Repository#create(String, long)}) is sent as one {@code PutObject} that runs on the executor from
         * the first byte written to the commit, taking one of its threads for that time; if the executor has not
         * started it when its buffer is full, the write goes on as a multipart upload. Values that fit in one part,
         * and every other request, are sent on the calling thread. The default, none, uploads each part on the
         * writer's thread. The repository neither shuts the executor down nor starts threads of its own.
         *
         * @param executor the executor, typically a pool of at least as many threads as repositories written at once
         * @return this builder
         * @throws NullPointerException if {@code executor} is null
         * @since 0.1
         */
        public Builder uploadExecutor(Executor executor) {
            this.uploadExecutor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Sends a value of promised length longer than a part ({@link S3Repository#create(String, long)}) as one
         * streamed {@code PutObject} on the {@linkplain #uploadExecutor upload executor}, from the first byte written
         * to the commit, instead of a multipart upload: its link is busy from the first byte, and it needs one request
         * instead of at least three. Off by default, because such a request behaves unlike a multipart upload when
         * links are slow or stall: it stays open while the writer produces the bytes, so a writer that waits (for
         * instance a checkpoint store filling every fragment of a segment in step, one of whose links stalls) leaves it
         * idle, and a server that closes idle request bodies (Amazon S3 does after about 20 s) fails it; and it cannot
         * be sent again once its bytes are gone, so a failed attempt fails the write (the store places the fragment
         * elsewhere) where a multipart upload would retry the one part. Turn it on for links that do not stall, such
         * as storage on the same network. On a client this builder makes, the request's time limit is the attempt
         * timeout once per part's worth of its bytes, as the parts of a multipart upload would have had; on a
         * {@linkplain #client given client}, that client's own limits apply. Without an upload executor this has no
         * effect.
         *
         * @param stream whether to stream values of promised length; {@code false} by default
         * @return this builder
         * @since 0.1
         */
        public Builder streamPromisedLengths(boolean stream) {
            this.streamPromisedLengths = stream;
            return this;
        }

        /**
         * Builds the repository. It makes no call: a missing bucket or refused credentials show at the first call.
         *
         * @return the repository
         * @throws IllegalStateException    if both a client and connection settings were given
         * @throws IllegalArgumentException if no {@link #id(String)} was set and the default, {@code <bucket>/<key
         *                                  prefix>}, is longer than 255 bytes of UTF-8
         */
        public S3Repository build() {
            if (id == null) {
                String defaultId = bucket + "/" + keyPrefix;
                checkId(defaultId, "the default id \"" + defaultId + "\" is longer than 255 bytes of UTF-8; set a "
                        + "shorter one with id(...): it has ");
            }
            if (client != null) {
                if (endpoint != null || credentials != null || pathStyle) {
                    throw new IllegalStateException("a client was given: configure its endpoint, credentials and "
                            + "addressing on it, not on this builder");
                }
                return new S3Repository(this, client, false);
            }
            var builder = S3Client.builder()
                    .region(Region.of(region))
                    .forcePathStyle(pathStyle)
                    .httpClientBuilder(Apache5HttpClient.builder().connectionTimeout(connectTimeout)
                            .socketTimeout(attemptTimeout))
                    .overrideConfiguration(o -> o.apiCallTimeout(callTimeout).apiCallAttemptTimeout(attemptTimeout)
                            .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                                    .retryOnException(S3Repository::damagedOnTheWay)
                                    .maxAttempts(maxAttempts).build()));
            if (endpoint != null) {
                builder.endpointOverride(endpoint);
            }
            if (credentials != null) {
                builder.credentialsProvider(credentials);
            }
            return new S3Repository(this, builder.build(), true);
        }
    }
}
