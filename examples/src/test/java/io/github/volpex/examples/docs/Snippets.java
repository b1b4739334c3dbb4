package io.github.volpex.examples.docs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.ToolProvider;

/**
 * The Java snippets of the repository's Markdown files (README.md and every file of docs/). Each {@code ```java}
 * block is named by an HTML comment on the line before it, {@code <!-- snippet: NAME -->}, which Markdown renders as
 * nothing. A snippet that declares a public class is a whole program, named after the class; any other snippet is a
 * fragment, compiled inside the harness {@code src/test/resources/snippets/NAME.java} of this module, which declares
 * what the fragment takes as given and puts it where the line {@code //@snippet} stands.
 */
public final class Snippets {

    private static final Pattern BLOCK = Pattern.compile("(?m)^([^\\n]*)\\n```java\\n(.*?)\\n```$", Pattern.DOTALL);
    private static final Pattern NAME = Pattern.compile("<!-- snippet: ([A-Za-z][A-Za-z0-9-]*) -->");

    private Snippets() {
    }

    /** One named Java block of a Markdown file. */
    public record Snippet(Path file, String name, String text) {

        /** Whether the block is a whole program (it declares a public class) rather than a fragment. */
        public boolean isProgram() {
            return text.contains("public final class " + name + " ") || text.contains("public class " + name + " ");
        }

        @Override
        public String toString() {
            return file + " snippet " + name;
        }
    }

    /** The repository's root, seen from this module's directory (where Surefire runs the tests). */
    public static Path repositoryRoot() {
        return Path.of("..").toAbsolutePath().normalize();
    }

    /** The Markdown files whose Java blocks the build compiles: the README and everything under docs/. */
    public static List<Path> documents() {
        Path root = repositoryRoot();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /**
     * Every Java block of {@code file}, by name, in order.
     *
     * @throws IllegalStateException if a block has no name or two blocks share one
     */
    public static Map<String, Snippet> of(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Snippet> snippets = new LinkedHashMap<>();
        Matcher block = BLOCK.matcher(text);
        while (block.find()) {
            Matcher name = NAME.matcher(block.group(1).trim());
            int line = (int) text.substring(0, block.start(2)).chars().filter(c -> c == '\n').count();
            if (!name.matches()) {
                throw new IllegalStateException(file + ": the java block of line " + line
                        + " has no name: put <!-- snippet: NAME --> on the line before it");
            }
            Snippet snippet = new Snippet(file, name.group(1), block.group(2));
            if (snippets.put(snippet.name(), snippet) != null) {
                throw new IllegalStateException(file + ": two java blocks are named " + snippet.name());
            }
        }
        return snippets;
    }

    /**
     * The block named {@code name} of {@code file}.
     *
     * @throws IllegalStateException if there is none
     */
    public static Snippet named(Path file, String name) {
        Snippet snippet = of(file).get(name);
        if (snippet == null) {
            throw new IllegalStateException(file + " has no java block named " + name + " (<!-- snippet: " + name
                    + " -->)");
        }
        return snippet;
    }

    /**
     * Compiles {@code sources} into {@code classes} against this test's class path, for Java 17, with every lint
     * warning an error (as a user's strictest build would).
     *
     * @return javac's diagnostics if the compilation failed, empty if it succeeded
     */
    public static Optional<String> compile(Path classes, List<Path> sources) {
        List<String> arguments = new ArrayList<>(List.of("-Xlint:all", "-Werror", "--release", "17",
                "-classpath", System.getProperty("java.class.path"), "-d", classes.toString()));
        sources.forEach(source -> arguments.add(source.toString()));
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = ToolProvider.getSystemJavaCompiler()
                .run(null, null, diagnostics, arguments.toArray(String[]::new));
        return status == 0 ? Optional.empty()
                : Optional.of(diagnostics.toString(StandardCharsets.UTF_8));
    }
}
