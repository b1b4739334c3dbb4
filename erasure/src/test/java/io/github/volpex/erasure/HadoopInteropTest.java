package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;
import org.apache.hadoop.io.erasurecode.rawcoder.XORRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.XORRawEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hadoop's pure-Java {@code RSRawEncoder} (the ISA-L-compatible Cauchy Reed–Solomon coder) and {@code XORRawEncoder}
 * are independent oracles: fed our data fragments, they must produce our parity fragments byte for byte, and decode
 * our fragments. They run from the hadoop-common jar alone (all its dependencies are excluded).
 */
class HadoopInteropTest {

    @ParameterizedTest(name = "systematic({0}, {1}), {2} bytes")
    @CsvSource({"6, 3, 1048576", "7, 1, 100000", "6, 2, 777", "2, 4, 65537", "6, 12, 393216", "6, 18, 50000",
        "10, 4, 1", "1, 5, 300", "3, 3, 0", "12, 20, 123457", "200, 55, 30000"})
    void hadoop_rs_parity_is_byte_identical_and_decodes_our_fragments(int m, int k, int length) throws Exception {
        IdaCodec codec = IdaCodec.systematic(m, k);
        byte[] data = TestData.bytes(m * 1000L + k, length);
        List<Fragment> fragments = codec.encode(data);
        int payload = (int) codec.payloadLength(length);
        byte[][] inputs = new byte[m][];
        for (int j = 0; j < m; j++) {
            inputs[j] = IdaCodecTest.bare(fragments.get(j));
        }
        byte[][] parity = new byte[k][payload];
        if (payload > 0) {
            new RSRawEncoder(new ErasureCoderOptions(m, k)).encode(inputs, parity);
        }
        for (int i = 0; i < k; i++) {
            assertArrayEquals(IdaCodecTest.bare(fragments.get(m + i)), parity[i], "parity fragment " + (m + i));
        }
        if (payload == 0) {
            return;
        }
        // Hadoop rebuilds the first min(k, m) data fragments from the rest of ours.
        int lost = Math.min(k, m);
        byte[][] available = new byte[m + k][];
        for (int i = lost; i < m + k; i++) {
            available[i] = IdaCodecTest.bare(fragments.get(i));
        }
        int[] erased = new int[lost];
        byte[][] rebuilt = new byte[lost][payload];
        for (int j = 0; j < lost; j++) {
            erased[j] = j;
        }
        new RSRawDecoder(new ErasureCoderOptions(m, k)).decode(available, erased, rebuilt);
        for (int j = 0; j < lost; j++) {
            assertArrayEquals(inputs[j], rebuilt[j], "data fragment " + j);
        }
    }

    @ParameterizedTest(name = "xor({0}), {1} bytes")
    @CsvSource({"7, 1048576", "7, 100000", "6, 777", "2, 65537", "1, 300", "10, 1", "3, 0", "12, 123457",
        "254, 30000"})
    void hadoop_xor_parity_is_byte_identical_and_rebuilds_any_one_of_our_fragments(int m, int length)
            throws Exception {
        IdaCodec codec = IdaCodec.xor(m);
        byte[] data = TestData.bytes(m * 1000L + 1, length);
        List<Fragment> fragments = codec.encode(data);
        int payload = (int) codec.payloadLength(length);
        byte[][] ours = new byte[m + 1][];
        for (int i = 0; i <= m; i++) {
            ours[i] = IdaCodecTest.bare(fragments.get(i));
        }
        byte[][] parity = new byte[1][payload];
        if (payload > 0) {
            new XORRawEncoder(new ErasureCoderOptions(m, 1)).encode(java.util.Arrays.copyOf(ours, m), parity);
        }
        assertArrayEquals(ours[m], parity[0], "parity fragment " + m);
        if (payload == 0) {
            return;
        }
        // Hadoop rebuilds each one of our fragments, data or parity, from the other m.
        XORRawDecoder decoder = new XORRawDecoder(new ErasureCoderOptions(m, 1));
        for (int lost = 0; lost <= m; lost++) {
            byte[][] available = ours.clone();
            available[lost] = null;
            byte[][] rebuilt = new byte[1][payload];
            decoder.decode(available, new int[] {lost}, rebuilt);
            assertArrayEquals(ours[lost], rebuilt[0], "fragment " + lost);
        }
    }
}
