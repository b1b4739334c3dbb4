package io.github.volpex.testkit;

/**
 * The kinds of call a {@link FaultyRepository} passes to its {@link FaultSchedule}: one per method of
 * {@code FragmentRepository}, and one per chunk written to or read from a stream.
 *
 * @since 0.1
 */
public enum RepositoryCall {
    /** {@code put(key, content)}. */
    PUT,
    /** {@code get(key)}. */
    GET,
    /** {@code delete(key)}. */
    DELETE,
    /** {@code list(prefix)}. */
    LIST,
    /** {@code create(key)}: the start of a streaming write. */
    CREATE,
    /** One {@code write} to a streaming write's output. */
    WRITE,
    /** {@code commit()} of a streaming write: when its value becomes visible. */
    COMMIT,
    /** {@code open(key)}: the start of a streaming read. */
    OPEN,
    /** One {@code read} from a streaming read's input. */
    READ;

    /**
     * Tells whether the call changes what the repository stores when it succeeds.
     *
     * @return {@code true} for {@link #PUT}, {@link #DELETE} and {@link #COMMIT}
     */
    public boolean hasEffect() {
        return this == PUT || this == DELETE || this == COMMIT;
    }
}
