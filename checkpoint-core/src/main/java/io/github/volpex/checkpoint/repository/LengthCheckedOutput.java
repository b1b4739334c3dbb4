package io.github.volpex.checkpoint.repository;

import java.io.IOException;
import java.util.Objects;

/**
 * A streaming write that holds its writer to the length it promised ({@link FragmentRepository#create(String, long)}):
 * a write past it is refused before any of its bytes reach the output underneath, and so is a commit short of it,
 * so that nothing of a broken promise is ever published.
 */
final class LengthCheckedOutput extends FragmentOutput {

    private final String key;
    private final long lengthBytes;
    private final FragmentOutput out;
    private long written;
    /** Why the output may no longer be committed (a write past the promise was refused), or null. */
    private String broken;

    LengthCheckedOutput(String key, long lengthBytes, FragmentOutput out) {
        this.key = key;
        this.lengthBytes = lengthBytes;
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        admit(1);
        passOn(() -> out.write(b));
        written++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        admit(len);
        passOn(() -> out.write(b, off, len));
        written += len;
    }

    /** A write to the output underneath. */
    @FunctionalInterface
    private interface Write {
        void run() throws IOException;
    }

    /** Runs a write; if it fails, how much of it was taken is unknown, so the output may no longer be committed. */
    private void passOn(Write write) throws IOException {
        try {
            write.run();
        } catch (IOException | RuntimeException | Error e) {
            broken = "an earlier write to " + key + " failed (" + e + "); nothing will be published";
            throw e;
        }
    }

    private void admit(int len) {
        if (broken != null) {
            throw new IllegalStateException(broken);
        }
        if (written + len > lengthBytes) {
            broken = "a write of " + len + " bytes would take " + key + " to " + (written + len) + " bytes, past "
                    + "the " + lengthBytes + " promised; nothing of it was written, and nothing will be published";
            throw new IllegalStateException(broken);
        }
    }

    @Override
    protected void publish() throws IOException {
        if (broken != null) {
            throw new IllegalStateException(broken);
        }
        if (written != lengthBytes) {
            throw new IllegalStateException(key + " was promised " + lengthBytes + " bytes but " + written
                    + " were written; nothing was published");
        }
        out.commit();
    }

    @Override
    protected void discard() throws IOException {
        out.close();
    }
}
