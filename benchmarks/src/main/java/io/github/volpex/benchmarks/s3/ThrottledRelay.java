package io.github.volpex.benchmarks.s3;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay on loopback in front of one server, limiting every connection in each direction to a rate: the link of
 * one storage host as its clients see it (a volunteer's uplink, or the per-request stream rate of a cloud store).
 * Each direction of each connection has its own token bucket, so that parallel requests to one host each get the
 * rate, as they would from S3. It also counts the bytes it carries towards the server: the bytes a client wrote,
 * HTTP headers and request signatures included.
 *
 * <p>The relay listens on an ephemeral port of the loopback address; each accepted connection gets a connection to
 * the server and two pumping threads. {@link #close()} closes the listener and every connection, and waits for the
 * threads to end.
 */
final class ThrottledRelay implements Closeable {

    /** The most a pump moves at once, and the most a bucket holds: a short burst at a high rate, 64 KiB. */
    private static final int CHUNK_BYTES = 64 << 10;

    private final ServerSocket listener;
    private final int serverPort;
    private final long bytesPerSecond;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong upstreamBytes = new AtomicLong();
    private final Thread acceptor;
    private volatile boolean closed;

    /**
     * Starts a relay to {@code serverPort} on loopback.
     *
     * @param serverPort     the server's port on the loopback address
     * @param bytesPerSecond the rate of each direction of each connection, in bytes per second; 0 for no limit
     * @throws IOException if no port can be bound
     */
    ThrottledRelay(int serverPort, long bytesPerSecond) throws IOException {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("bytesPerSecond must be >= 0: " + bytesPerSecond);
        }
        this.serverPort = serverPort;
        this.bytesPerSecond = bytesPerSecond;
        this.listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        this.acceptor = start("relay-" + listener.getLocalPort() + "-accept", this::accept);
    }

    /** The port clients connect to. */
    int port() {
        return listener.getLocalPort();
    }

    /** The bytes carried towards the server since the relay started. */
    long upstreamBytes() {
        return upstreamBytes.get();
    }

    private Thread start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        synchronized (threads) {
            threads.removeIf(t -> !t.isAlive());
            threads.add(thread);
        }
        thread.start();
        return thread;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            Socket server;
            try {
                server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
            } catch (IOException e) {
                closeQuietly(client);
                continue;
            }
            sockets.add(client);
            sockets.add(server);
            if (closed) {
                closeQuietly(client);
                closeQuietly(server);
                return;
            }
            AtomicInteger running = new AtomicInteger(2);
            String name = "relay-" + port() + "-" + client.getPort();
            start(name + "-up", () -> pump(client, server, running, upstreamBytes));
            start(name + "-down", () -> pump(server, client, running, null));
        }
    }

    /**
     * Moves bytes from {@code from} to {@code to} at the rate until {@code from} ends, then ends {@code to}'s output;
     * the last of a connection's two pumps to end closes both sockets (a failure closes them at once).
     */
    private void pump(Socket from, Socket to, AtomicInteger running, AtomicLong counter) {
        byte[] buffer = new byte[CHUNK_BYTES];
        double tokens = CHUNK_BYTES;
        long last = System.nanoTime();
        boolean failed = false;
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (bytesPerSecond > 0) {
                    long now = System.nanoTime();
                    tokens = Math.min(CHUNK_BYTES, tokens + (now - last) * 1e-9 * bytesPerSecond) - n;
                    last = now;
                    if (tokens < 0) {
                        long wait = (long) (-tokens * 1e9 / bytesPerSecond);
                        long until = now + wait;
                        for (long left = wait; left > 0; left = until - System.nanoTime()) {
                            LockSupport.parkNanos(left);
                        }
                    }
                }
                out.write(buffer, 0, n);
                if (counter != null) {
                    counter.addAndGet(n);
                }
            }
            to.shutdownOutput();
        } catch (IOException e) {
            failed = true;
        } finally {
            if (running.decrementAndGet() == 0 || failed) {
                closeQuietly(from);
                closeQuietly(to);
            }
        }
    }

    private void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing anyway.
        }
        sockets.remove(socket);
    }

    /** Closes the listener and every connection, and waits for every thread of the relay to end. */
    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        List<Thread> all;
        synchronized (threads) {
            all = new ArrayList<>(threads);
        }
        try {
            acceptor.join(5_000);
            for (Thread thread : all) {
                thread.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }
}
