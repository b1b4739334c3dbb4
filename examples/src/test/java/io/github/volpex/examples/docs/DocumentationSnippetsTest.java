package io.github.volpex.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.examples.docs.Snippets.Snippet;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java block of the README and of docs/ compiles against the library as it is, with every lint warning an
 * error: whole programs as they stand, fragments inside their harness (src/test/resources/snippets), which declares
 * what the fragment takes as given. A harness that has a {@code static void run()} is also run: those of the module
 * tour check the values the fragments compute (an interval of 837 s, a rate of 1/12 600 per second, a decoded
 * checkpoint equal to the encoded one...). So no snippet is copied by hand into a test, and one that stops compiling
 * fails the build. The two whole programs also run elsewhere: the middleware guide in testkit's consumer test, the
 * program across JVMs in {@code AcrossMachinesGuideTest}.
 */
class DocumentationSnippetsTest {

    private static final Path HARNESSES = Path.of("src", "test", "resources", "snippets");
    private static final String MARKER = "//@snippet";

    /** The fragments by name (each must have a harness) and the programs by name. */
    private static Map<String, Snippet> snippets() {
        Map<String, Snippet> all = new TreeMap<>();
        for (Path document : Snippets.documents()) {
            for (Snippet snippet : Snippets.of(document).values()) {
                Snippet other = all.put(snippet.name(), snippet);
                assertTrue(other == null, "two snippets are named " + snippet.name() + ": " + other + ", " + snippet);
            }
        }
        return all;
    }

    @Test
    void every_fragment_has_a_harness_and_every_harness_a_fragment() throws IOException {
        TreeSet<String> fragments = new TreeSet<>();
        snippets().values().stream().filter(s -> !s.isProgram()).forEach(s -> fragments.add(s.name()));
        TreeSet<String> harnesses = new TreeSet<>();
        try (Stream<Path> files = Files.list(HARNESSES)) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".java"))
                    .forEach(n -> harnesses.add(n.substring(0, n.length() - ".java".length())));
        }
        assertEquals(fragments, harnesses, "a harness per fragment of the docs, named after it, in " + HARNESSES);
        assertTrue(fragments.size() >= 10, "the docs' fragments were found: " + fragments);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void every_snippet_compiles_and_each_harness_with_a_run_method_passes(@TempDir Path work) throws Exception {
        Path sources = Files.createDirectories(work.resolve("src/snippets"));
        List<Path> files = new ArrayList<>();
        List<String> runnable = new ArrayList<>();
        for (Snippet snippet : snippets().values()) {
            String origin = "// " + Snippets.repositoryRoot().relativize(snippet.file()) + ", snippet "
                    + snippet.name() + "\n";
            String source;
            if (snippet.isProgram()) {
                source = "package snippets;\n" + origin + "\n" + snippet.text() + "\n";
            } else {
                source = harness(snippet, origin);
                if (source.contains("static void run()")) {
                    runnable.add(className(snippet.name()));
                }
            }
            Path file = sources.resolve((snippet.isProgram() ? snippet.name() : className(snippet.name())) + ".java");
            Files.writeString(file, source);
            files.add(file);
        }
        Path classes = Files.createDirectories(work.resolve("classes"));
        Optional<String> failed = Snippets.compile(classes, files);
        assertTrue(failed.isEmpty(), () -> "the docs' snippets compile with every warning an error (each generated "
                + "file's first lines name the document and the snippet):\n" + failed.orElseThrow());

        assertTrue(runnable.size() >= 4, "harnesses that check what their fragment computes: " + runnable);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                DocumentationSnippetsTest.class.getClassLoader())) {
            for (String name : runnable) {
                Method run = loader.loadClass("snippets." + name).getDeclaredMethod("run");
                run.setAccessible(true);
                try {
                    run.invoke(null);
                } catch (InvocationTargetException e) {
                    throw new AssertionError("the harness " + name + " failed", e.getCause());
                }
            }
        }
    }

    /** The harness of a fragment, with the fragment put where its marker line stands, at the marker's indent. */
    private static String harness(Snippet snippet, String origin) throws IOException {
        String text = Files.readString(HARNESSES.resolve(snippet.name() + ".java"));
        List<String> lines = new ArrayList<>(text.lines().toList());
        int at = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().equals(MARKER)) {
                assertEquals(-1, at, "one " + MARKER + " line in the harness of " + snippet);
                at = i;
            }
        }
        assertTrue(at >= 0, "the harness of " + snippet + " has a " + MARKER + " line");
        String indent = lines.get(at).substring(0, lines.get(at).indexOf(MARKER));
        lines.remove(at);
        lines.addAll(at, snippet.text().lines().map(l -> l.isEmpty() ? l : indent + l).toList());
        String className = className(snippet.name());
        String joined = String.join("\n", lines) + "\n";
        assertTrue(joined.contains("final class " + className + " {"),
                "the harness of " + snippet + " declares the class " + className);
        assertTrue(joined.startsWith("package snippets;\n"), "the harness of " + snippet + " is in package snippets");
        return joined.replaceFirst("package snippets;\n", "package snippets;\n" + origin);
    }

    /** {@code async-commit} → {@code AsyncCommitSnippet}. */
    static String className(String name) {
        StringBuilder className = new StringBuilder();
        for (String part : name.split("-")) {
            className.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return className.append("Snippet").toString();
    }
}
