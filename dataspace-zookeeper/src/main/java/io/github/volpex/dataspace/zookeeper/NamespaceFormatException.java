package io.github.volpex.dataspace.zookeeper;

import java.util.Objects;

/**
 * A namespace holds a Volpex dataspace of a format this library does not read, for example one created by an earlier
 * version whose znode layout differed. It is refused, never read as another format nor converted: nothing in it was
 * changed. Finish or destroy that job with the version that created it, or delete the namespace's znodes, then connect
 * again. Format 2 kept all tag records, blob references and blobs of a namespace under single znodes, which ZooKeeper
 * cannot list past some 10⁴ to 10⁵ entries; format 3 spreads them over buckets (the package description gives the
 * layout).
 *
 * @since 0.1
 */
public final class NamespaceFormatException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The namespace's znode. */
    private final String namespace;
    /** The format the namespace's header names. */
    private final int format;
    /** The format this library reads. */
    private final int supportedFormat;

    /**
     * Creates the exception.
     *
     * @param namespace       the namespace's znode
     * @param format          the format its header names
     * @param supportedFormat the format this library reads
     * @throws NullPointerException if {@code namespace} is null
     */
    public NamespaceFormatException(String namespace, int format, int supportedFormat) {
        super("namespace " + Objects.requireNonNull(namespace, "namespace") + " holds a dataspace of format " + format
                + (format == 2 ? " (tag records, blob references and blobs each under one znode)" : "")
                + "; this library reads format " + supportedFormat + " only and changed nothing there: finish or "
                + "destroy that job with the version that created it, or delete the namespace's znodes");
        this.namespace = namespace;
        this.format = format;
        this.supportedFormat = supportedFormat;
    }

    /**
     * Returns the namespace's znode.
     *
     * @return its path
     */
    public String namespace() {
        return namespace;
    }

    /**
     * Returns the format the namespace's header names.
     *
     * @return the format
     */
    public int format() {
        return format;
    }

    /**
     * Returns the format this library reads.
     *
     * @return the format
     */
    public int supportedFormat() {
        return supportedFormat;
    }
}
