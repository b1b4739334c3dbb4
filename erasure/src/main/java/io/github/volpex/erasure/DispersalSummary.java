package io.github.volpex.erasure;

import java.util.List;
import java.util.Objects;

/**
 * What a streaming encode wrote: enough to index the fragments without reading them back.
 *
 * @param layout the layout
 * @param m the number of fragments that rebuild the data
 * @param n the number of fragments written
 * @param dataLength the number of data bytes read, in bytes
 * @param dispersalId the SHA-256 of the data, in lowercase hexadecimal (see {@link Fragment#dispersalId()})
 * @param contentIds the content id of each fragment, by index (see {@link Fragment#contentId()})
 * @since 0.1
 */
public record DispersalSummary(Layout layout, int m, int n, long dataLength, String dispersalId,
                               List<String> contentIds) {

    /**
     * Validates and copies the components.
     *
     * @param layout the layout
     * @param m the number of fragments that rebuild the data
     * @param n the number of fragments written
     * @param dataLength the number of data bytes read, in bytes
     * @param dispersalId the SHA-256 of the data, in lowercase hexadecimal
     * @param contentIds the content id of each fragment, by index; copied
     *
     * @throws NullPointerException if a component is null
     * @throws IllegalArgumentException if {@code contentIds} does not hold {@code n} ids
     */
    public DispersalSummary {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(dispersalId, "dispersalId");
        contentIds = List.copyOf(contentIds);
        if (contentIds.size() != n) {
            throw new IllegalArgumentException("contentIds must hold n = " + n + " ids: " + contentIds.size());
        }
    }
}
