package io.github.volpex.examples.remd;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one logical process of the replica-exchange run needs to resume: its chain, the temperature rung it holds,
 * the last completed step and the dataspace request number after that step; process 0 also keeps the temperature
 * history. This is what a checkpoint stores. Mutable; owned by one replica.
 */
public final class RemdState {

    private static final int FORMAT = 0x52454D31; // "REM1"

    final int process;
    PolymerChain chain;
    int rung;
    int completedSteps;
    long requestNumber;
    /** Row s holds, for every process, the rung it held after step s + 1 (process 0 only; empty elsewhere). */
    final List<int[]> history;

    RemdState(int process, PolymerChain chain, int rung, int completedSteps, long requestNumber, List<int[]> history) {
        this.process = process;
        this.chain = chain;
        this.rung = rung;
        this.completedSteps = completedSteps;
        this.requestNumber = requestNumber;
        this.history = history;
    }

    /**
     * Returns the state of process {@code process} before the first step: a straight chain at rung {@code process}.
     *
     * @param setup   the run
     * @param process the logical process
     * @return the initial state
     */
    public static RemdState initial(RemdSetup setup, int process) {
        return new RemdState(process, PolymerChain.straight(setup.beads()), process, 0, 0, new ArrayList<>());
    }

    /**
     * Returns the number of completed steps.
     *
     * @return the completed steps
     */
    public int completedSteps() {
        return completedSteps;
    }

    /**
     * Returns the dataspace request number after the last completed step.
     *
     * @return the request number
     */
    public long requestNumber() {
        return requestNumber;
    }

    /**
     * Serializes the state exactly.
     *
     * @return the checkpoint bytes
     */
    public byte[] toBytes() {
        byte[] chainBytes = chain.toBytes();
        int width = history.isEmpty() ? 0 : history.get(0).length;
        ByteBuffer buffer = ByteBuffer.allocate(36 + chainBytes.length + 4 * width * history.size());
        buffer.putInt(FORMAT).putInt(process).putInt(rung).putInt(completedSteps).putLong(requestNumber);
        buffer.putInt(chainBytes.length).put(chainBytes);
        buffer.putInt(history.size()).putInt(width);
        for (int[] row : history) {
            for (int value : row) {
                buffer.putInt(value);
            }
        }
        return buffer.array();
    }

    /**
     * Restores a state written by {@link #toBytes()}.
     *
     * @param bytes the checkpoint bytes
     * @return the state
     * @throws IllegalArgumentException if the bytes are not a serialized state
     */
    public static RemdState fromBytes(byte[] bytes) {
        try {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            if (buffer.getInt() != FORMAT) {
                throw new IllegalArgumentException("not a replica-exchange checkpoint");
            }
            int process = buffer.getInt();
            int rung = buffer.getInt();
            int completed = buffer.getInt();
            long request = buffer.getLong();
            byte[] chainBytes = new byte[buffer.getInt()];
            buffer.get(chainBytes);
            int rows = buffer.getInt();
            int width = buffer.getInt();
            List<int[]> history = new ArrayList<>();
            for (int r = 0; r < rows; r++) {
                int[] row = new int[width];
                for (int c = 0; c < width; c++) {
                    row[c] = buffer.getInt();
                }
                history.add(row);
            }
            if (buffer.hasRemaining()) {
                throw new IllegalArgumentException("replica-exchange checkpoint has " + buffer.remaining()
                        + " trailing bytes");
            }
            return new RemdState(process, PolymerChain.fromBytes(chainBytes), rung, completed, request, history);
        } catch (java.nio.BufferUnderflowException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("truncated replica-exchange checkpoint (" + bytes.length + " bytes)", e);
        }
    }
}
