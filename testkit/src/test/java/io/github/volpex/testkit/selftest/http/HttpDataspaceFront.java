package io.github.volpex.testkit.selftest.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceException;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A dataspace fronted by the JDK's HTTP server on loopback, as a middleware would front it over its own transport.
 * It never holds a thread for a waiting request: {@code /submit} hands the request to
 * {@link DataspaceServer#submit(Request)} and answers at once — with the reply, the failure, or a ticket when the
 * request waits — and the outcomes of waiting requests are collected by the client's single long poll of
 * {@code /completions}. {@code /forget} drops a ticket whose caller stopped waiting (the request stays pending).
 * Bodies use {@link Wire}.
 */
final class HttpDataspaceFront implements AutoCloseable {

    static {
        // The JDK's server writes a response's headers and body separately; without TCP_NODELAY each small answer
        // waits for the client's delayed acknowledgement (tens of milliseconds). Read once, when the server's
        // configuration class loads.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    /** How long a poll of {@code /completions} waits for an outcome before it answers with none. */
    private static final long POLL_MILLIS = 200;

    private final Dataspace dataspace;
    private final DataspaceServer server;
    private final HttpServer http;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final AtomicLong nextTicket = new AtomicLong();
    private final ConcurrentHashMap<Long, CompletableFuture<Reply>> waiting = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<byte[]> completions = new LinkedBlockingQueue<>();

    /** Starts a front for the dataspace on an ephemeral loopback port. */
    HttpDataspaceFront(Dataspace dataspace) throws IOException {
        this.dataspace = dataspace;
        this.server = dataspace.server();
        this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/", this::exchange);
        http.setExecutor(executor);
        http.start();
    }

    URI uri() {
        return URI.create("http://" + http.getAddress().getHostString() + ":" + http.getAddress().getPort() + "/");
    }

    /** Stops the HTTP server and its threads. The dataspace is the caller's to close. */
    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }

    private void exchange(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            byte[] answer = answer(exchange.getRequestURI().getPath(),
                    new DataInputStream(new ByteArrayInputStream(body)));
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }

    private byte[] answer(String path, DataInputStream in) throws IOException, InterruptedException {
        try {
            return switch (path) {
                case "/submit" -> submit(Wire.readRequest(in));
                case "/forget" -> {
                    CompletableFuture<Reply> forgotten = waiting.remove(in.readLong());
                    if (forgotten != null) {
                        forgotten.cancel(false);
                    }
                    yield new byte[0];
                }
                case "/completions" -> completions();
                case "/cancel" -> {
                    Optional<Reply> reply = server.cancel(in.readInt(), in.readLong());
                    yield reply.isEmpty() ? Wire.bytes(out -> out.writeByte(Wire.CANCELLED))
                            : Wire.bytes(out -> {
                                out.writeByte(Wire.REPLY);
                                Wire.writeReply(out, reply.get());
                            });
                }
                case "/pending" -> {
                    Optional<Request> pending = server.pendingRequest(in.readInt());
                    yield pending.isEmpty() ? Wire.bytes(out -> out.writeByte(Wire.NONE))
                            : Wire.bytes(out -> {
                                out.writeByte(Wire.REPLY);
                                Wire.writeRequest(out, pending.get());
                            });
                }
                case "/highWaterMark" -> number(server.highWaterMark(in.readInt()));
                case "/oldestRetained" -> number(server.oldestRetained(in.readInt()));
                case "/statistics" -> statistics(dataspace.statistics());
                case "/close" -> {
                    dataspace.close();
                    yield new byte[0];
                }
                default -> throw new IllegalArgumentException("no such resource: " + path);
            };
        } catch (DataspaceException | IllegalArgumentException | IllegalStateException | NullPointerException failed) {
            return failure(failed);
        }
    }

    /** Submits a request; answers its outcome at once, or a ticket whose outcome goes to the completions. */
    private byte[] submit(Request request) {
        CompletableFuture<Reply> reply = server.submit(request);
        if (reply.isDone()) {
            return outcome(reply);
        }
        long ticket = nextTicket.incrementAndGet();
        waiting.put(ticket, reply);
        reply.whenComplete((done, failure) -> {
            if (waiting.remove(ticket) != null) {
                completions.add(Wire.bytes(out -> {
                    out.writeLong(ticket);
                    Wire.writeBytes(out, outcome(reply));
                }));
            }
        });
        return Wire.bytes(out -> {
            out.writeByte(Wire.WAITING);
            out.writeLong(ticket);
        });
    }

    /**
     * Waits briefly for completed tickets; answers as many as are there: a count, then for each its ticket and its
     * outcome (length-prefixed, as {@code /submit} would have answered it).
     */
    private byte[] completions() throws InterruptedException {
        List<byte[]> ready = new ArrayList<>();
        byte[] first = completions.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
        if (first != null) {
            ready.add(first);
            completions.drainTo(ready);
        }
        return Wire.bytes(out -> {
            out.writeInt(ready.size());
            for (byte[] completion : ready) {
                out.write(completion);
            }
        });
    }

    private static byte[] outcome(CompletableFuture<Reply> done) {
        Reply reply;
        try {
            reply = done.join();
        } catch (CompletionException failed) {
            return failure((RuntimeException) failed.getCause());
        }
        return Wire.bytes(out -> {
            out.writeByte(Wire.REPLY);
            Wire.writeReply(out, reply);
        });
    }

    private static byte[] number(long value) {
        return Wire.bytes(out -> {
            out.writeByte(Wire.REPLY);
            out.writeLong(value);
        });
    }

    private static byte[] failure(RuntimeException failure) {
        return Wire.bytes(out -> {
            out.writeByte(Wire.FAILURE);
            Wire.writeFailure(out, failure);
        });
    }

    private static byte[] statistics(DataspaceStatistics statistics) {
        return Wire.bytes(out -> {
            out.writeByte(Wire.REPLY);
            for (Operation operation : Operation.values()) {
                out.writeLong(statistics.requests(operation));
            }
            out.writeLong(statistics.duplicatesIgnored());
            out.writeLong(statistics.servedFromLog());
            out.writeLong(statistics.joinedPending());
            out.writeLong(statistics.evictions());
            out.writeLong(statistics.evictedRequests());
            out.writeLong(statistics.maxReplicaLag());
        });
    }
}
