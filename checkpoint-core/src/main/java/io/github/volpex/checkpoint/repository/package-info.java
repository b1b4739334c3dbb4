/**
 * The storage a checkpoint store writes to: the service-provider interface a storage adapter implements, and the two
 * repositories that ship with the core.
 *
 * <p>Start from {@link io.github.volpex.checkpoint.repository.FragmentRepository}: a flat, sorted map from keys to
 * byte strings, with streaming writes through a {@link io.github.volpex.checkpoint.repository.FragmentOutput} that
 * become visible only when committed. {@link io.github.volpex.checkpoint.repository.FragmentRepository#inMemory} keeps
 * the values in the heap (tests, simulations); {@link io.github.volpex.checkpoint.repository.DirectoryRepository}
 * keeps them as files of a directory, replaced by atomic rename and optionally forced to disk. The S3 adapter
 * ({@code io.github.volpex.checkpoint.repository.s3}) implements the same interface over an object store.
 *
 * <h2>What an adapter implements</h2>
 * {@code id}, {@code put}, {@code get}, {@code delete} and {@code list}, safe for concurrent use; {@code create} (a
 * {@code FragmentOutput}) and {@code open} have defaults that buffer a whole value in memory, which an adapter
 * overrides to stream. {@code create(key, lengthBytes)} is a streaming write whose writer promises the value's
 * length — the store promises each fragment's when it commits a byte array or regenerates a fragment — so that a
 * repository that must announce a length before sending (an HTTP upload) can send from the first byte; its default
 * is {@code create(key)} held to the promise
 * ({@link io.github.volpex.checkpoint.repository.FragmentOutput#checkingLength}, which an override uses too). Every
 * call may fail with an {@link java.io.IOException}; a repository that cannot be reached at all reports a
 * {@link io.github.volpex.checkpoint.repository.RepositoryUnavailableException}, which the store counts as that
 * repository being away rather than as damaged data.
 *
 * <h2>The consistency it must offer</h2>
 * The store's commit point (fragments, then index copies, then commit markers, each verified by listing; see
 * {@link io.github.volpex.checkpoint.store}) rests on three properties of every repository:
 * <ul>
 *   <li><b>atomic replacement</b>: a reader sees the previous value of a key or the whole new one, never a part, and
 *       a failed or abandoned write leaves the previous value;</li>
 *   <li><b>read-your-writes</b>: once a write returns, {@code get}, {@code open} and {@code list} see it — the store
 *       verifies fragments, index copies and markers by listing;</li>
 *   <li><b>all or nothing</b>: a call that fails has taken full effect or none.</li>
 * </ul>
 * Listings return every key under a prefix, however many pages the storage needs.
 *
 * <h2>How to check an implementation</h2>
 * Extend {@code io.github.volpex.testkit.FragmentRepositoryContract} (artifact {@code volpex-testkit}) in your test
 * sources and return a fresh repository from its factory method: it checks each property above, streaming writes,
 * writes of promised length (a write past the promise or a commit short of it fails and leaves nothing, and so does
 * an output closed after every promised byte), listings longer than a page, large values and the key checks. The
 * in-memory and directory repositories and the S3 adapter run it; the testkit's {@code FaultyRepository} then
 * injects outages and damage into any of them.
 *
 * @since 0.1
 */
package io.github.volpex.checkpoint.repository;
