package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.volpex.testsupport.SearchDepth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One codec shared by many threads: its scratch pool and decoding-matrix cache must never mix calls. */
class ConcurrencyTest {

    static Stream<IdaCodec> codecs() {
        return Stream.of(IdaCodec.systematic(6, 6), IdaCodec.xor(6));
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void one_codec_serves_concurrent_encodes_and_decodes_of_different_data_and_patterns(IdaCodec layout)
            throws Exception {
        IdaCodec codec = layout.withStripeSizeBytes(512);
        int n = codec.n();
        int rounds = SearchDepth.rounds(150);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                results.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    int checked = 0;
                    for (int round = 0; round < rounds; round++) {
                        byte[] data = TestData.bytes(seed * 1000 + round, random.nextInt(20_000));
                        byte[][] payloads = new byte[n][(int) codec.payloadLength(data.length)];
                        codec.encodePayloads(data, 0, data.length, payloads);
                        List<Integer> order = new ArrayList<>();
                        for (int i = 0; i < n; i++) {
                            order.add(i);
                        }
                        Collections.shuffle(order, random);
                        for (int lost : order.subList(0, codec.k())) {
                            payloads[lost] = null;
                        }
                        byte[] back = new byte[data.length];
                        codec.decodePayloads(payloads, back, 0, data.length);
                        assertArrayEquals(data, back, "thread " + seed + ", round " + round);
                        checked++;
                    }
                    return checked;
                }));
            }
            for (Future<Integer> r : results) {
                assertEquals(rounds, r.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
