package io.github.volpex.checkpoint.repository;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.estimators.SurvivalFunction;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What the tests of this module's packages share: scratch directories and the command line of a child JVM. */
public final class TestEnvironment {

    private TestEnvironment() {
    }

    /** A fresh directory below {@code target/}, which {@code mvn clean} removes. */
    public static Path freshDirectory() throws IOException {
        Path root = Path.of("target", "test-repositories");
        Files.createDirectories(root);
        return Files.createTempDirectory(root, "repo");
    }

    /** The java launcher of this JVM. */
    public static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** The locations of this module's classes, its tests and the two modules it uses. */
    public static String childClassPath() {
        List<String> entries = new ArrayList<>();
        for (Class<?> type : List.of(CheckpointStore.class, TestEnvironment.class, IdaCodec.class,
                SurvivalFunction.class)) {
            try {
                String entry = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                        .toString();
                if (!entries.contains(entry)) {
                    entries.add(entry);
                }
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
