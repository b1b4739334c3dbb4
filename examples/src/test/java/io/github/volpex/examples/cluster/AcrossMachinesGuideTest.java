package io.github.volpex.examples.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.checkpoint.repository.s3.S3Repository;
import io.github.volpex.examples.docs.Snippets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The program of a replicated process across JVMs in docs/across-machines.md — writer election, process checkpoints on
 * S3, restarts, clean-up — taken from the guide as a user would paste it (the block marked
 * {@code <!-- snippet: AcrossMachines -->}), compiled with every lint warning an error, and run against three S3
 * servers (S3Proxy) with an ensemble it starts itself: it must print its summary with the right result, and leave no
 * object in the buckets. So the guide's text cannot drift from the library.
 */
class AcrossMachinesGuideTest {

    private static final Pattern SUMMARY = Pattern.compile("tasks 40; replicas started 4, killed 2; restarted [cd] "
            + "from the checkpoint of task (\\d+), request (\\d+); (\\d+) objects deleted; result 5740, correct: true");

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void the_guide_program_runs_the_whole_cycle_and_leaves_nothing(@TempDir Path work) throws Exception {
        Path source = work.resolve("src/com/example/guide/AcrossMachines.java");
        Files.createDirectories(source.getParent());
        String guide = Snippets.named(Snippets.repositoryRoot().resolve("docs/across-machines.md"), "AcrossMachines")
                .text();
        Files.writeString(source, "package com.example.guide;\n\n" + guide + "\n");
        Path classes = Files.createDirectories(work.resolve("classes"));
        Optional<String> failed = Snippets.compile(classes, List.of(source));
        assertTrue(failed.isEmpty(), () -> "the guide's program compiles with every warning an error:\n"
                + failed.orElseThrow());

        S3Credentials credentials = new S3Credentials("guide-access", "guide-secret");
        List<S3Server> servers = new ArrayList<>();
        try {
            List<String> endpoints = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                S3Server server = S3Server.start("127.0.0.1", 0, "guide", credentials);
                servers.add(server);
                endpoints.add(server.endpoint().toString());
            }
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", classes + java.io.File.pathSeparator
                    + System.getProperty("java.class.path"), "com.example.guide.AcrossMachines",
                    String.join(",", endpoints), "guide").redirectErrorStream(true);
            builder.environment().putAll(credentials.environment());
            Process program = builder.start();
            String output;
            try {
                output = readAll(program.getInputStream(), program, 180);
            } finally {
                program.destroyForcibly();
                program.descendants().forEach(ProcessHandle::destroyForcibly);
            }
            assertEquals(0, program.exitValue(), output);
            Matcher summary = SUMMARY.matcher(output);
            assertTrue(summary.find(), "the program's summary:\n" + output);
            long task = Long.parseLong(summary.group(1));
            assertTrue(task == 20 || task == 30, "restarted from the checkpoint of task 20 (or 30): " + output);
            assertEquals(task, Long.parseLong(summary.group(2)), "one request per task: " + output);
            assertTrue(Long.parseLong(summary.group(3)) > 0, output);
            for (S3Server server : servers) {
                try (S3Repository bucket = S3Repository.builder("guide").endpoint(server.endpoint()).pathStyle(true)
                        .credentials(credentials.accessKeyId(), credentials.secretAccessKey()).build()) {
                    assertEquals(List.of(), bucket.list(""), "no object is left on " + server.endpoint());
                }
            }
        } finally {
            servers.forEach(S3Server::close);
        }
    }

    private static String readAll(InputStream in, Process process, int seconds) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> {
            try {
                in.transferTo(bytes);
            } catch (IOException ended) {
                // Destroyed.
            }
        });
        reader.setDaemon(true);
        reader.start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            fail("the program did not end within " + seconds + " s:\n" + bytes.toString(StandardCharsets.UTF_8));
        }
        reader.join(10_000);
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
