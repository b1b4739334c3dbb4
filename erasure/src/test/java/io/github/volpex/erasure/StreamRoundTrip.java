package io.github.volpex.erasure;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Encodes a generated stream of any length into fragment files in a temporary directory and decodes it back from
 * them, without ever holding the data, then deletes the files; prints {@code OK <bytes> <sha256>} when the rebuilt
 * stream's SHA-256 equals the dispersal id. Run it in a JVM with
 * a small heap to show that streaming memory does not grow with the data:
 * {@code java -Xmx256m -cp erasure/target/classes:erasure/target/test-classes io.github.volpex.erasure.StreamRoundTrip
 * 2147483648}.
 */
public final class StreamRoundTrip {

    private StreamRoundTrip() {
    }

    /**
     * Runs the round trip.
     *
     * @param args the data length in bytes; optionally the layout ({@code systematic}, {@code rabin} or
     *        {@code xor}), m and k (default systematic, 6 and 3; k is 1 for xor)
     * @throws Exception if the round trip fails
     */
    public static void main(String[] args) throws Exception {
        long length = Long.parseLong(args[0]);
        Layout layout = args.length > 1 ? Layout.valueOf(args[1].toUpperCase(java.util.Locale.ROOT))
                : Layout.SYSTEMATIC;
        IdaCodec codec = TestData.codec(layout, args.length > 2 ? Integer.parseInt(args[2]) : 6,
                args.length > 3 ? Integer.parseInt(args[3]) : 3);
        int m = codec.m();
        int n = codec.n();
        Path dir = Files.createTempDirectory("volpex-stream");
        try {
            List<OutputStream> sinks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                sinks.add(new BufferedOutputStream(Files.newOutputStream(dir.resolve("fragment-" + i)), 1 << 16));
            }
            long start = System.nanoTime();
            DispersalSummary summary;
            try (InputStream data = new GeneratedStream(length)) {
                summary = codec.encode(data, sinks);
            }
            for (OutputStream s : sinks) {
                s.close();
            }
            long encoded = System.nanoTime();
            // Decode from the last m fragments: with the systematic layout, as much parity as possible.
            List<InputStream> sources = new ArrayList<>();
            for (int i = n - m; i < n; i++) {
                sources.add(new BufferedInputStream(Files.newInputStream(dir.resolve("fragment-" + i)), 1 << 16));
            }
            MessageDigest sha = Hashing.sha256();
            long[] count = new long[1];
            long decoded = codec.decode(sources, new OutputStream() {
                @Override
                public void write(int b) {
                    sha.update((byte) b);
                    count[0]++;
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    sha.update(b, off, len);
                    count[0] += len;
                }
            });
            for (InputStream s : sources) {
                s.close();
            }
            long done = System.nanoTime();
            String rebuilt = FragmentFormat.hex(sha.digest());
            if (decoded != length || count[0] != length || summary.dataLength() != length
                    || !rebuilt.equals(summary.dispersalId())) {
                throw new AssertionError("round trip mismatch: decoded " + decoded + ", written " + count[0]
                        + ", encoded " + summary.dataLength() + ", sha " + rebuilt + " vs " + summary.dispersalId());
            }
            System.out.printf("OK %d %s maxHeap=%d encodeSeconds=%.1f decodeSeconds=%.1f%n", length, rebuilt,
                    Runtime.getRuntime().maxMemory(), (encoded - start) / 1e9, (done - encoded) / 1e9);
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    /** A deterministic pseudo-random byte stream of a given length (xorshift), generated on the fly. */
    static final class GeneratedStream extends InputStream {
        private long remaining;
        private long state = 0x9E3779B97F4A7C15L;

        GeneratedStream(long length) {
            this.remaining = length;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (remaining == 0) {
                return -1;
            }
            int n = (int) Math.min(len, remaining);
            for (int i = 0; i < n; i++) {
                state ^= state << 13;
                state ^= state >>> 7;
                state ^= state << 17;
                b[off + i] = (byte) state;
            }
            remaining -= n;
            return n;
        }
    }
}
