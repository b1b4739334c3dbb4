package io.github.volpex.erasure;

import java.util.List;
import java.util.Objects;

/**
 * Fewer than {@code m} distinct verified fragments were available, so the data cannot be rebuilt.
 *
 * <p>It says how many fragments were given, how many verified, how many are needed, and which were rejected and why.
 *
 * @since 0.1
 */
public final class NotEnoughFragmentsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why one given fragment was not used. */
    private final transient List<Rejection> rejections;
    /** How many fragments the caller passed. */
    private final int given;
    /** How many distinct fragments verified. */
    private final int verified;
    /** How many are needed: {@code m}. */
    private final int needed;

    /**
     * One fragment that was treated as lost.
     *
     * @param position the fragment's position in the collection or list the caller passed, from 0
     * @param fragmentIndex the fragment's index from its verified header, or {@code -1} if the header did not verify
     * @param reason what failed
     * @since 0.1
     */
    public record Rejection(int position, int fragmentIndex, String reason) {

        /**
         * Validates the components.
         *
         * @param position the fragment's position in what the caller passed, from 0
         * @param fragmentIndex the fragment's index, or {@code -1} if its header did not verify
         * @param reason what failed
         *
         * @throws NullPointerException if {@code reason} is null
         */
        public Rejection {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Creates the exception.
     *
     * @param given how many fragments the caller passed
     * @param verified how many distinct fragments verified
     * @param needed how many are needed, {@code m}
     * @param rejections the fragments that were treated as lost, and why
     */
    public NotEnoughFragmentsException(int given, int verified, int needed, List<Rejection> rejections) {
        super(message(given, verified, needed, rejections));
        this.given = given;
        this.verified = verified;
        this.needed = needed;
        this.rejections = List.copyOf(rejections);
    }

    private static String message(int given, int verified, int needed, List<Rejection> rejections) {
        StringBuilder sb = new StringBuilder()
                .append("need ").append(needed).append(" distinct verified fragments, have ").append(verified)
                .append(" (").append(given).append(" given");
        if (!rejections.isEmpty()) {
            sb.append("; rejected:");
            for (Rejection r : rejections) {
                sb.append(" [position ").append(r.position());
                if (r.fragmentIndex() >= 0) {
                    sb.append(", index ").append(r.fragmentIndex());
                }
                sb.append(": ").append(r.reason()).append(']');
            }
        }
        return sb.append(')').toString();
    }

    /**
     * Returns how many fragments the caller passed.
     *
     * @return the count
     */
    public int given() {
        return given;
    }

    /**
     * Returns how many distinct fragments verified.
     *
     * @return the count, {@code < needed()}
     */
    public int verified() {
        return verified;
    }

    /**
     * Returns how many distinct verified fragments decoding needs: {@code m}.
     *
     * @return {@code m}
     */
    public int needed() {
        return needed;
    }

    /**
     * Returns the fragments that were treated as lost, and why.
     *
     * @return an unmodifiable list, empty if every given fragment verified
     */
    public List<Rejection> rejections() {
        return rejections == null ? List.of() : rejections;
    }
}
