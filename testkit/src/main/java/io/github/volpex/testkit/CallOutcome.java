package io.github.volpex.testkit;

import io.github.volpex.dataspace.Reply;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * What one call of a dataspace returned, as a {@link DataspaceHistory} records it: a put took effect, a
 * single-assignment put stored or kept, a read-type request received data or found the tag absent, or a waiting read or
 * get was cancelled. A cancel's answer is the outcome of the request it cancelled: {@link #cancelled()} when the
 * request still waited, its outcome otherwise.
 *
 * <p>Immutable and thread-safe; equal when of the same kind with the same bytes.
 *
 * @since 0.1
 */
public final class CallOutcome {

    /**
     * The kinds of outcome.
     *
     * @since 0.1
     */
    public enum Kind {
        /** A put took effect (only the first replica's does; the outcome is the same for all). */
        PUT,
        /** A single-assignment put found the tag without data and stored its own. */
        STORED,
        /** A single-assignment put found data and kept it. */
        KEPT,
        /** A read-type request received data. */
        DATA,
        /** A try-operation found the tag without data. */
        ABSENT,
        /** A read or get was cancelled while it waited. */
        CANCELLED
    }

    private static final CallOutcome PUT = new CallOutcome(Kind.PUT, null);
    private static final CallOutcome STORED = new CallOutcome(Kind.STORED, null);
    private static final CallOutcome KEPT = new CallOutcome(Kind.KEPT, null);
    private static final CallOutcome ABSENT = new CallOutcome(Kind.ABSENT, null);
    private static final CallOutcome CANCELLED = new CallOutcome(Kind.CANCELLED, null);

    private final Kind kind;
    private final byte[] data;

    private CallOutcome(Kind kind, byte[] data) {
        this.kind = kind;
        this.data = data;
    }

    /**
     * Returns the outcome of a put.
     *
     * @return the outcome
     */
    public static CallOutcome put() {
        return PUT;
    }

    /**
     * Returns the outcome of a single-assignment put.
     *
     * @param stored whether it stored its data ({@link Kind#STORED}) or found data and kept it ({@link Kind#KEPT})
     * @return the outcome
     */
    public static CallOutcome stored(boolean stored) {
        return stored ? STORED : KEPT;
    }

    /**
     * Returns the outcome of a read-type request that received data.
     *
     * @param data the data received (copied)
     * @return the outcome
     * @throws NullPointerException if {@code data} is null
     */
    public static CallOutcome data(byte[] data) {
        return new CallOutcome(Kind.DATA, Objects.requireNonNull(data, "data").clone());
    }

    /**
     * Returns the outcome of a try-operation that found the tag without data.
     *
     * @return the outcome
     */
    public static CallOutcome absent() {
        return ABSENT;
    }

    /**
     * Returns the outcome of a read or get that was cancelled while it waited (its callers receive
     * {@link io.github.volpex.dataspace.DataspaceCancelledException}).
     *
     * @return the outcome
     */
    public static CallOutcome cancelled() {
        return CANCELLED;
    }

    /**
     * Returns the outcome a reply carries: {@link Kind#PUT} for a put, {@link Kind#STORED} or {@link Kind#KEPT} for a
     * single-assignment put, {@link Kind#DATA} or (for a try-operation) {@link Kind#ABSENT} for a read-type request.
     *
     * @param reply the reply
     * @return the outcome
     * @throws NullPointerException     if {@code reply} is null
     * @throws IllegalArgumentException if a read or get's reply carries no data
     */
    public static CallOutcome of(Reply reply) {
        Objects.requireNonNull(reply, "reply");
        return switch (reply.operation()) {
            case PUT -> PUT;
            case PUT_IF_ABSENT -> stored(reply.stored());
            case READ, GET -> data(reply.data().orElseThrow(() -> new IllegalArgumentException(
                    "reply of a " + reply.operation() + " must carry data: " + reply)));
            case TRY_READ, TRY_GET -> reply.data().map(CallOutcome::data).orElse(ABSENT);
            default -> throw new AssertionError(reply.operation());
        };
    }

    /**
     * Returns the answer of {@link io.github.volpex.dataspace.DataspaceServer#cancel(int, long)}: {@link #cancelled()}
     * when it is empty (the request still waited), the outcome of the request's reply otherwise.
     *
     * @param answer what the cancel returned
     * @return the outcome
     * @throws NullPointerException if {@code answer} is null
     */
    public static CallOutcome ofCancel(Optional<Reply> answer) {
        return Objects.requireNonNull(answer, "answer").map(CallOutcome::of).orElse(CANCELLED);
    }

    /**
     * Returns the kind of outcome.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Returns the data received, for {@link Kind#DATA}.
     *
     * @return a copy of the data, or empty for every other kind
     */
    public Optional<byte[]> data() {
        return data == null ? Optional.empty() : Optional.of(data.clone());
    }

    /** The data itself, not copied; null unless {@link Kind#DATA}. */
    byte[] dataUnsafe() {
        return data;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CallOutcome && ((CallOutcome) other).kind == kind
                && Arrays.equals(((CallOutcome) other).data, data);
    }

    @Override
    public int hashCode() {
        return 31 * kind.hashCode() + Arrays.hashCode(data);
    }

    /**
     * Returns the kind in lower case, or for data the bytes as UTF-8 text in quotes when they are valid UTF-8 of up to
     * 64 characters, as hexadecimal otherwise.
     *
     * @return the outcome as text
     */
    @Override
    public String toString() {
        return kind == Kind.DATA ? describe(data) : kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Bytes as quoted UTF-8 text when they are short valid text, else as (abridged) hexadecimal. */
    static String describe(byte[] bytes) {
        if (bytes.length <= 64) {
            try {
                String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
                if (text.chars().noneMatch(Character::isISOControl)) {
                    return '"' + text + '"';
                }
            } catch (CharacterCodingException notText) {
                // Shown in hexadecimal below.
            }
        }
        String hex = HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 16));
        return "0x" + hex + (bytes.length > 16 ? "… (" + bytes.length + " bytes)" : "");
    }
}
