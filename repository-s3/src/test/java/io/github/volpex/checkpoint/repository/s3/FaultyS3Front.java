package io.github.volpex.checkpoint.repository.s3;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * An HTTP front on loopback that forwards requests to an S3 server — which must not check signatures, since the
 * front changes the Host header — and injects what real endpoints do: throttling answers ({@code 503 SlowDown}),
 * answers cut short and answers with a byte flipped. Always close it.
 */
final class FaultyS3Front implements AutoCloseable {

    private static final Set<String> HOP_BY_HOP = Set.of("host", "connection", "content-length", "transfer-encoding",
            "expect", "upgrade", "keep-alive", "date");

    private final URI target;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicInteger throttle = new AtomicInteger();
    private final AtomicBoolean truncateGets = new AtomicBoolean();
    private final AtomicBoolean stripChecksums = new AtomicBoolean();
    private final List<Damage> damages = new CopyOnWriteArrayList<>();

    /** What to do to the next answers to requests that match: cut the body half-way, or flip one of its bytes. */
    private record Damage(Predicate<String> request, boolean truncate, AtomicInteger remaining) {
    }

    FaultyS3Front(URI target) throws IOException {
        this.target = target;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The next {@code count} requests are answered {@code 503 SlowDown} without reaching the server. */
    void throttleNext(int count) {
        throttle.set(count);
    }

    /**
     * Cuts the body of the next {@code count} answers to requests that match half-way (the announced length stays),
     * as a connection dropped mid-answer does.
     *
     * @param request matches {@code "<method> <path and query>"}
     */
    void truncateNext(Predicate<String> request, int count) {
        damages.add(new Damage(request, true, new AtomicInteger(count)));
    }

    /**
     * Whether answers lose their {@code x-amz-checksum-…} headers, as from a server that neither keeps nor returns the
     * checksums of uploads.
     */
    void stripChecksums(boolean strip) {
        stripChecksums.set(strip);
    }

    /** Forgets every damage asked for and not done yet. */
    void clearDamage() {
        damages.clear();
    }

    /** Flips one byte in the middle of the body of the next {@code count} answers to requests that match. */
    void flipNext(Predicate<String> request, int count) {
        damages.add(new Damage(request, false, new AtomicInteger(count)));
    }

    /** Whether GET answers stop half-way through their body (the announced length stays). */
    void truncateGets(boolean truncate) {
        truncateGets.set(truncate);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (throttle.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                byte[] error = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
                        + "<Message>Please reduce your request rate.</Message></Error>")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/xml");
                exchange.sendResponseHeaders(503, error.length);
                exchange.getResponseBody().write(error);
                return;
            }
            HttpRequest.Builder forward = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().toString()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
                if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                    header.getValue().forEach(value -> forward.header(header.getKey(), value));
                }
            }
            HttpResponse<InputStream> answer = client.send(forward.build(), HttpResponse.BodyHandlers.ofInputStream());
            answer.headers().map().forEach((name, values) -> {
                boolean checksum = name.toLowerCase(Locale.ROOT).startsWith("x-amz-checksum-");
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")
                        && !(checksum && stripChecksums.get())) {
                    values.forEach(value -> exchange.getResponseHeaders().add(name, value));
                }
            });
            byte[] content;
            try (InputStream in = answer.body()) {
                content = in.readAllBytes();
            }
            boolean head = exchange.getRequestMethod().equals("HEAD");
            if (head) {
                answer.headers().firstValue("content-length")
                        .ifPresent(length -> exchange.getResponseHeaders().set("Content-Length", length));
                exchange.sendResponseHeaders(answer.statusCode(), -1);
                return;
            }
            exchange.sendResponseHeaders(answer.statusCode(), content.length == 0 ? -1 : content.length);
            OutputStream out = exchange.getResponseBody();
            String request = exchange.getRequestMethod() + " " + exchange.getRequestURI();
            Damage damage = content.length > 1 ? damages.stream().filter(d -> d.request().test(request)
                    && d.remaining().getAndUpdate(n -> Math.max(0, n - 1)) > 0).findFirst().orElse(null) : null;
            if (damage != null && !damage.truncate()) {
                content[content.length / 2] ^= 0x20;
            }
            if ((damage != null && damage.truncate())
                    || (truncateGets.get() && exchange.getRequestMethod().equals("GET") && content.length > 1)) {
                out.write(content, 0, content.length / 2);
                out.flush();
                // Closing with the body half sent cuts the connection.
                return;
            }
            out.write(content);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
