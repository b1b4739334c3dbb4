package io.github.volpex.testkit.selftest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Fresh directories below {@code target/}, which {@code mvn clean} removes. */
final class TestDirectories {

    private TestDirectories() {
    }

    static Path fresh() throws IOException {
        Path root = Path.of("target", "test-repositories");
        Files.createDirectories(root);
        return Files.createTempDirectory(root, "repo");
    }
}
