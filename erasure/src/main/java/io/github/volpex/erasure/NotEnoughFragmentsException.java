package io.github.volpex.erasure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * No dispersal had {@code m} distinct verified fragments, so the data cannot be rebuilt.
 *
 * <p>It says how many fragments were given, how many verified (of the dispersal with the most), how many are
 * needed, how many verified of each dispersal present, and which fragments were rejected and why.
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
    /** Distinct verified fragments by dispersal id, most first. */
    private final transient Map<String, Integer> verifiedByDispersal;

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
        this(given, verified, needed, rejections, Map.of());
    }

    /**
     * Creates the exception, with the count of each dispersal present.
     *
     * @param given how many fragments the caller passed
     * @param verified how many distinct fragments of one dispersal verified, at most
     * @param needed how many are needed, {@code m}
     * @param rejections the fragments that were treated as lost, and why
     * @param verifiedByDispersal how many distinct fragments verified of each dispersal id (64 hexadecimal digits);
     *        copied, in its iteration order
     * @throws NullPointerException if a list, map, key or value is null
     */
    public NotEnoughFragmentsException(int given, int verified, int needed, List<Rejection> rejections,
                                       Map<String, Integer> verifiedByDispersal) {
        super(message(given, verified, needed, rejections, verifiedByDispersal));
        this.given = given;
        this.verified = verified;
        this.needed = needed;
        this.rejections = List.copyOf(rejections);
        this.verifiedByDispersal = Collections.unmodifiableMap(new LinkedHashMap<>(verifiedByDispersal));
    }

    private static String message(int given, int verified, int needed, List<Rejection> rejections,
                                  Map<String, Integer> byDispersal) {
        boolean several = byDispersal.size() > 1;
        StringBuilder sb = new StringBuilder()
                .append("need ").append(needed).append(" distinct verified fragments")
                .append(several ? " of one dispersal" : "").append(", have ").append(verified)
                .append(" (").append(given).append(" given");
        if (several) {
            sb.append("; verified by dispersal:");
            String separator = " ";
            for (Map.Entry<String, Integer> e : byDispersal.entrySet()) {
                sb.append(separator).append(abbreviate(e.getKey())).append(' ').append(e.getValue());
                separator = ", ";
            }
        }
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

    /** The first 12 digits of a dispersal id, for messages. */
    static String abbreviate(String dispersalId) {
        return dispersalId.length() > 12 ? dispersalId.substring(0, 12) + "…" : dispersalId;
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
     * Returns how many distinct fragments of one dispersal verified: of the dispersal with the most.
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

    /**
     * Returns how many distinct fragments verified of each dispersal present, most first: two or more entries when
     * fragments of several dispersals were given and none had {@code m}.
     *
     * @return an unmodifiable map from dispersal id (64 hexadecimal digits) to count; empty if the decoder did not
     *         tell dispersals apart (no fragment verified, or the exception was made without the counts)
     */
    public Map<String, Integer> verifiedByDispersal() {
        return verifiedByDispersal == null ? Map.of() : verifiedByDispersal;
    }
}
