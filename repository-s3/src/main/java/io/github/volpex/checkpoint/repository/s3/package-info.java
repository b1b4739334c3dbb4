/**
 * Checkpoint fragments on Amazon S3 or any S3-compatible object store: start from
 * {@link io.github.volpex.checkpoint.repository.s3.S3Repository}, give several of them (one per endpoint, bucket or
 * prefix) to a {@link io.github.volpex.checkpoint.store.CheckpointStore}. It implements the service-provider interface
 * of {@link io.github.volpex.checkpoint.repository} and passes the testkit's repository contract.
 *
 * <h2>How the store's protocol maps onto S3</h2>
 * <ul>
 *   <li><b>Atomic replacement.</b> A {@code PutObject} or a completed multipart upload replaces an object whole:
 *       readers see the old object or the new one. So no temporary object and no move are needed — the role the
 *       atomic rename plays for a directory — and an abandoned streaming write is simply never completed (its
 *       multipart upload is aborted; a bucket lifecycle rule that aborts incomplete uploads after a day cleans up
 *       after processes killed mid-upload).</li>
 *   <li><b>Read-your-writes.</b> S3 has been strongly consistent for writes, overwrites, deletes and listings since
 *       December 2020, as are the usual self-hosted stores; the store relies on a listing after its writes to
 *       verify them and to find its commit markers.</li>
 *   <li><b>The commit point.</b> The store's commit markers are empty objects; index copies and markers are small
 *       {@code PutObject}s; fragments of a checkpoint larger than the part size are multipart uploads. A commit of
 *       {@code n} fragments on {@code n} buckets costs about {@code 3n} requests plus one per extra part, and two
 *       listings per bucket. With an upload executor
 *       ({@link io.github.volpex.checkpoint.repository.s3.S3Repository.Builder#uploadExecutor}) the parts of each
 *       fragment go out while the store encodes the next ones: where each connection is slower than the encoder (a
 *       host's uplink, or S3's rate per request stream), the n uploads then run all the time instead of in bursts
 *       between segments. When the store commits a byte array it knows every fragment's length and promises it
 *       ({@code FragmentRepository.create(key, lengthBytes)}); with
 *       {@link io.github.volpex.checkpoint.repository.s3.S3Repository.Builder#streamPromisedLengths} on (off by
 *       default: such a request stays open while the store writes, so a stalled link elsewhere idles it, and a server
 *       that closes idle bodies, as Amazon S3 does after about 20 s, fails it) a fragment longer than a part then goes
 *       out as one {@code PutObject} with that {@code Content-Length}, streamed from the first piece encoded — no
 *       part to fill first, no {@code CreateMultipartUpload} and {@code CompleteMultipartUpload}, one request per
 *       fragment. Its body comes from a buffer of 1 MiB the store's writes fill (they wait while it is full); its
 *       last byte is held back until the store commits the fragment, so that the object cannot appear before, and
 *       a fragment the store abandons ends its request with the body incomplete, which S3 never stores. Such a
 *       request cannot be sent again after a failed attempt (its bytes are gone, and keeping them would cost the
 *       fragment's size in memory): the write fails, and the store places the fragment elsewhere, regenerated from
 *       {@code m} others, as for any failed write; a multipart upload would have sent the failed part again.</li>
 *   <li><b>Integrity.</b> A value written with one {@code PutObject} — any value up to the part size, which takes
 *       in every index copy and commit marker and every fragment of checkpoints up to {@code m} times the part size
 *       — carries its CRC32C twice: as the checksum header S3 checks before it stores the object (a body damaged on
 *       the way is refused, and the built client sends it again), and in the object's metadata ({@code
 *       x-amz-meta-volpex-crc32c}).
 *       Downloads ask for the checksum back, which the client checks where the server returns it (Amazon S3,
 *       S3Proxy 4.1 for such uploads), and the repository checks every download of such a value against the CRC32C
 *       in its metadata whatever the server returns, at the end of the body. A value longer than the part size is
 *       uploaded in parts, each with a CRC32C S3 checks on arrival; its metadata cannot hold the whole value's
 *       CRC32C (it is fixed before the first part is sent), so on download it is checked for its length only — by
 *       the repository; Amazon S3 returns a checksum of the part checksums, which the client does not check either.
 *       A value streamed in one {@code PutObject} carries the CRC32C of its whole body as a trailer, computed by the
 *       client as the bytes leave and checked by S3 before it stores the object; like a value uploaded in parts, it
 *       is checked for its length only on download.
 *       A body that ends before its announced length is an error. {@code get} asks again for a body that does not
 *       arrive whole, three times in all (a server that reads an object's metadata and its body apart may pair the
 *       checksum of one version with the body of the next while the object is replaced: S3Proxy 4.1 does); a stream
 *       from {@code open} reports the failure at its end. The checkpoint store checks every fragment against its
 *       SHA-256 anyway.</li>
 *   <li><b>Deleting</b> answers whether the object existed from a {@code HeadObject} made just before the
 *       {@code DeleteObject} (S3 does not say): two concurrent deletes of one key may both answer {@code true}.</li>
 *   <li><b>Listing</b> follows continuation tokens to the end (S3 returns at most 1,000 keys a page) and returns the
 *       keys sorted and without repeats, even if objects come and go while it pages.</li>
 * </ul>
 *
 * <h2>The HTTP client, and why</h2>
 * A repository built from connection settings uses the AWS SDK's {@code apache5-client}, on Apache HttpClient 5: three
 * jars, logging through SLF4J like the SDK itself, pooled connections checked before reuse. The SDK's default Apache
 * HttpClient 4 client brings commons-logging and library versions that clash with other dependencies, its Netty client
 * a dozen jars; and the lightest, the JDK's {@code HttpURLConnection} client, failed 58 and 114 of 1,500 small
 * {@code PutObject}s in a row against S3Proxy (with and without checksums: "Error writing request body to server",
 * "Unexpected end of file from server" on reused connections), where this client failed none. Blocking calls suit the
 * store, which runs repository calls on an executor of the host's. Hosts that prefer another client build their own
 * {@code S3Client} and pass it to {@link io.github.volpex.checkpoint.repository.s3.S3Repository.Builder#client}.
 *
 * <h2>Timeouts and retries</h2>
 * The built client times out each attempt and each call, and retries with the SDK's standard strategy (exponential
 * backoff with jitter, throttling and 5xx answers included) a bounded number of times. It also retries what that
 * strategy gives up on at once although another attempt may get through: a request the server refused as damaged on
 * the way ({@code SignatureDoesNotMatch}, {@code XAmzContentSHA256Mismatch}, {@code BadDigest}: a flipped byte of a
 * body breaks its signature or checksum) and an answer cut short or unreadable (a listing, the id of a multipart
 * upload). What still fails reaches the store as a
 * {@link io.github.volpex.checkpoint.repository.RepositoryUnavailableException}, which it handles like an unreachable
 * host; a signature that never matches is reported as what it may be — a wrong secret access key or requests damaged
 * on the way — never as the one without the other. A client given to the builder keeps its own retry strategy.
 *
 * @since 0.1
 */
package io.github.volpex.checkpoint.repository.s3;
