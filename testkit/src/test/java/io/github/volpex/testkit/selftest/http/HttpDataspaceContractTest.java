package io.github.volpex.testkit.selftest.http;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.testkit.DataspaceContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * The dataspace contract through a network front: an in-process dataspace behind the JDK's HTTP server on loopback
 * ({@link HttpDataspaceFront}), used only through {@link HttpDataspaceClient}, which encodes every call as the wire
 * form {@code DataspaceServer} documents and raises the typed failures from the facts it receives. Every front and
 * client a test starts is stopped after it, whether it passed or not.
 */
class HttpDataspaceContractTest extends DataspaceContract {

    private final List<HttpDataspaceFront> fronts = new ArrayList<>();
    private final List<HttpDataspaceClient> clients = new ArrayList<>();
    private final List<Dataspace> dataspaces = new ArrayList<>();

    @Override
    protected Dataspace create(int processCount, DataspaceOptions options) {
        Dataspace dataspace = Dataspace.inProcess(processCount, options);
        dataspaces.add(dataspace);
        HttpDataspaceFront front;
        try {
            front = new HttpDataspaceFront(dataspace);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        fronts.add(front);
        HttpDataspaceClient client = new HttpDataspaceClient(front.uri(), processCount, options, () -> {
            front.close();
            dataspace.close();
        });
        clients.add(client);
        return client;
    }

    @AfterEach
    void stopEverything() {
        for (HttpDataspaceClient client : clients) {
            client.stop();
        }
        for (HttpDataspaceFront front : fronts) {
            front.close();
        }
        for (Dataspace dataspace : dataspaces) {
            dataspace.close();
        }
    }
}
