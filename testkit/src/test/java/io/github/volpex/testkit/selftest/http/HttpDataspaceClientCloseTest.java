package io.github.volpex.testkit.selftest.http;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Replica;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Closing the client while a call's submit is on the wire: the contract's "closing wakes every blocked caller" also
 * holds for a caller whose wait the front had registered but the client had not yet, when {@code close()} failed the
 * waits it knew.
 */
class HttpDataspaceClientCloseTest {

    @Test
    void a_wait_registered_after_close_fails_as_closed_instead_of_hanging() throws Exception {
        Dataspace dataspace = Dataspace.inProcess(1);
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (HttpDataspaceFront front = new HttpDataspaceFront(dataspace)) {
            HttpDataspaceClient client = new HttpDataspaceClient(front.uri(), 1, DataspaceOptions.defaults(),
                    () -> { });
            try {
                Replica replica = client.open(0);
                client.beforeRegistering = client::close; // close() runs between the front's answer and registration
                Future<byte[]> get = caller.submit(() -> replica.get("never-put"));
                ExecutionException failure = assertThrows(ExecutionException.class,
                        () -> get.get(10, TimeUnit.SECONDS));
                assertTrue(assertInstanceOf(DataspaceClosedException.class, failure.getCause()).dataspaceClosed());
                assertTrue(client.isClosed());
            } finally {
                client.stop();
            }
        } finally {
            caller.shutdownNow();
            dataspace.close();
        }
    }
}
