package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ZooKeeper's server replaces the JVM's default uncaught-exception handler with one that only logs; an embedded
 * ensemble puts the JVM's back. A {@code main} that starts an ensemble and then dies of an exception, in a JVM with
 * logging off, still reports the exception on its standard error and exits with status 1.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EmbeddedEnsembleHandlerTest {

    /** Starts a one-server ensemble, then dies of an exception that nothing catches. */
    public static final class Crashing {
        private Crashing() {
        }

        public static void main(String[] args) {
            Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
            EmbeddedZooKeeper ensemble = EmbeddedZooKeeper.start(1);
            if (Thread.getDefaultUncaughtExceptionHandler() != before) {
                ensemble.close();
                throw new IllegalStateException("the default uncaught-exception handler changed");
            }
            ensemble.close();
            throw new IllegalStateException("the application failed: marker-" + args[0]);
        }
    }

    @TempDir
    Path directory;

    @Test
    void a_main_that_dies_after_starting_an_ensemble_reports_its_exception() throws Exception {
        Path log = directory.resolve("crashing.log");
        Process child = ChildJvms.start("off", log, Crashing.class, "4711");
        try {
            assertTrue(child.waitFor(90, TimeUnit.SECONDS), "the child JVM ended");
            assertEquals(1, child.exitValue(), ChildJvms.tail(log));
            String errors = Files.readString(log);
            assertTrue(errors.contains("Exception in thread \"main\" java.lang.IllegalStateException: the application"
                    + " failed: marker-4711"), "the JVM's handler printed the exception: " + ChildJvms.tail(log));
        } finally {
            child.destroyForcibly();
        }
    }
}
