package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Streaming memory does not grow with the data: a 128 MiB stream is encoded and decoded back in a JVM whose whole
 * heap is 16 MiB (the 2 GiB run with {@code -Xmx256m} is recorded in benchmarks/README.md).
 */
class StreamingMemoryTest {

    @ParameterizedTest
    @ValueSource(strings = {"systematic", "xor"})
    void a_stream_eight_times_the_heap_round_trips_in_a_16_mib_jvm(String layout) throws Exception {
        long length = 128L << 20;
        String classpath = location(IdaCodec.class) + File.pathSeparator + location(StreamRoundTrip.class);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-Xmx16m", "-cp", classpath,
                StreamRoundTrip.class.getName(), Long.toString(length), layout)
                .redirectErrorStream(true).start();
        boolean finished = process.waitFor(5, TimeUnit.MINUTES);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!finished) {
            process.destroyForcibly();
        }
        assertTrue(finished, "round trip did not finish: " + output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.startsWith("OK " + length + " "), output);
        List<String> words = List.of(output.trim().split(" "));
        assertTrue(Long.parseLong(words.get(3).substring("maxHeap=".length())) <= 16L << 20, output);
    }

    private static String location(Class<?> type) throws URISyntaxException, IOException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
