package io.github.volpex.checkpoint.repository.s3;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on loopback that passes HTTP/1.1 exchanges through byte for byte — so that the server checks the
 * client's signatures as if it were reached directly — except that it flips one byte in the body of the next
 * {@code n} requests that have one, as a faulty network card or middlebox would, or stalls the next ones half-way
 * through their body, as a link that stops carrying data without closing does (the connection's thread and its
 * upstream half stay until the server drops it or the proxy is closed). Always close it.
 */
final class TamperingProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "tampering-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicInteger flips = new AtomicInteger();
    private final AtomicInteger flipped = new AtomicInteger();
    private final AtomicInteger stalls = new AtomicInteger();
    private final AtomicInteger stalled = new AtomicInteger();
    private final AtomicInteger bodies = new AtomicInteger();
    private final List<Socket> sockets = new ArrayList<>();

    TamperingProxy(URI target) throws IOException {
        this.target = new InetSocketAddress(target.getHost(), target.getPort());
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::accept);
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** The next {@code count} request bodies each get one byte flipped. */
    void flipNextBodies(int count) {
        flips.set(count);
    }

    /** The next {@code count} request bodies stop half-way: nothing more of them reaches the server. */
    void stallNextBodies(int count) {
        stalls.set(count);
    }

    /** How many requests with a body began so far (their heads passed on). */
    int bodiesBegun() {
        return bodies.get();
    }

    /** How many bodies were stalled so far. */
    int stalled() {
        return stalled.get();
    }

    /** How many bodies were flipped so far. */
    int flipped() {
        return flipped.get();
    }

    private void accept() {
        try {
            while (true) {
                Socket client = server.accept();
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(upstream);
                }
                threads.execute(() -> requests(client, upstream));
                threads.execute(() -> pipe(upstream, client));
            }
        } catch (IOException closed) {
            // The proxy was closed.
        }
    }

    /** Copies requests from the client to the server, one at a time, flipping a body byte when asked. */
    private void requests(Socket client, Socket upstream) {
        try (InputStream in = new BufferedInputStream(client.getInputStream());
             OutputStream out = new BufferedOutputStream(upstream.getOutputStream())) {
            while (true) {
                out.flush();
                byte[] head = readHead(in);
                if (head == null) {
                    return;
                }
                out.write(head);
                // The head goes on at once: a client that asked for "100 Continue" waits for it before its body.
                out.flush();
                String headers = new String(head, StandardCharsets.ISO_8859_1);
                long length = header(headers, "content-length").map(Long::parseLong).orElse(0L);
                boolean chunked = header(headers, "content-encoding").filter(e -> e.contains("aws-chunked"))
                        .isPresent();
                boolean flip = length > 0 && flips.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
                boolean stall = !flip && length > 1 && stalls.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
                if (length > 0) {
                    bodies.incrementAndGet();
                }
                // In an aws-chunked body, the first data byte follows the first chunk header's line end.
                boolean lineEnded = false;
                long target = chunked ? -1 : length / 2;
                int previous = -1;
                if (!flip) {
                    // Passed on in blocks, up to the stall if there is one.
                    long passed = stall ? length / 2 : length;
                    byte[] block = new byte[64 * 1024];
                    for (long sent = 0; sent < passed; ) {
                        int n = in.read(block, 0, (int) Math.min(block.length, passed - sent));
                        if (n < 0) {
                            return;
                        }
                        out.write(block, 0, n);
                        sent += n;
                    }
                    out.flush();
                    if (stall) {
                        stalled.incrementAndGet();
                        // Carry nothing more, read nothing more: the client's writes back up until it gives up.
                        while (!client.isClosed()) {
                            Thread.sleep(10);
                        }
                        return;
                    }
                    continue;
                }
                for (long sent = 0; sent < length; sent++) {
                    int b = in.read();
                    if (b < 0) {
                        return;
                    }
                    if (flip && (sent == target || (chunked && lineEnded && target < 0))) {
                        b ^= 0x20;
                        flipped.incrementAndGet();
                        flip = false;
                    }
                    lineEnded = lineEnded || (previous == '\r' && b == '\n');
                    previous = b;
                    out.write(b);
                }
                out.flush();
            }
        } catch (IOException e) {
            // A connection closed.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    /** The request line and headers, up to and including the blank line; null at the end of the stream. */
    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : b == '\r' ? 1 : 0;
        }
        return head.toByteArray();
    }

    private static Optional<String> header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals(name)) {
                return Optional.of(line.substring(colon + 1).trim());
            }
        }
        return Optional.empty();
    }

    private static void pipe(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // A connection closed.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // Already closed.
        }
        synchronized (sockets) {
            sockets.forEach(TamperingProxy::closeQuietly);
        }
        threads.shutdownNow();
    }
}
