package io.github.volpex.dataspace.zookeeper;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy in front of one ZooKeeper server that loses replies on demand. It reads ZooKeeper's framing
 * (a 4-byte length before every packet; after the connect request, each request starts with its xid and op code):
 * when {@linkplain #loseNextTransactionReply() armed}, it forwards the next write {@code multi} (op code 14) to the
 * server and closes the connection as soon as the server answers anything. The server has the transaction; the client
 * sees a connection loss and must find out for itself whether it applied. The client reconnects through the proxy.
 * When {@linkplain #holdNextTransaction(byte[]) told to hold}, it keeps the next write {@code multi} that holds given
 * bytes (and so everything after it on that connection) until {@linkplain #releaseHeld() released}: the client's
 * group commit then has a batch in flight for as long as a test needs, and the transactions that come meanwhile queue
 * behind it.
 *
 * <p>One thread per direction per connection, daemon, all stopped by {@link #close()}.
 */
final class FaultyLink implements AutoCloseable {

    private static final int OP_MULTI = 14;
    private static final int HOLD_SECONDS = 30;

    private final InetSocketAddress server;
    private final ServerSocket listener;
    private final Thread acceptor;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicBoolean armed = new AtomicBoolean();
    private final AtomicInteger lost = new AtomicInteger();
    private final AtomicBoolean holdArmed = new AtomicBoolean();
    private final AtomicBoolean holding = new AtomicBoolean();
    private volatile CountDownLatch release = new CountDownLatch(0);
    private volatile byte[] holdMarker = new byte[0];
    private volatile boolean closed;

    private FaultyLink(InetSocketAddress server) throws IOException {
        this.server = server;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "faulty-link-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Starts a proxy to the server at {@code 127.0.0.1:port}. */
    static FaultyLink to(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        return new FaultyLink(new InetSocketAddress(hostPort.substring(0, colon),
                Integer.parseInt(hostPort.substring(colon + 1))));
    }

    String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** Arms the proxy: the reply to the next write multi is lost with its connection. */
    void loseNextTransactionReply() {
        armed.set(true);
    }

    /** Disarms the proxy if no write multi came since it was armed. */
    void disarm() {
        armed.set(false);
    }

    boolean armed() {
        return armed.get();
    }

    /**
     * Arms the hold: the next write multi that contains {@code marker} (such as a path's bytes) waits in the proxy,
     * before it is forwarded, until {@link #releaseHeld()} (or {@value #HOLD_SECONDS} s at most, or the proxy's close).
     */
    void holdNextTransaction(byte[] marker) {
        holdMarker = marker.clone();
        release = new CountDownLatch(1);
        holdArmed.set(true);
    }

    /** Whether a write multi is held now. */
    boolean holding() {
        return holding.get();
    }

    /** Disarms the hold and forwards the write multi held, if any. */
    void releaseHeld() {
        holdArmed.set(false);
        release.countDown();
    }

    /** Returns how many replies were lost so far. */
    int lostReplies() {
        return lost.get();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket upstream = new Socket();
                try {
                    upstream.connect(server, 5_000);
                } catch (IOException down) {
                    // The server is stopped: refuse the client at once, as the server's own port would, so that it
                    // tries another server instead of waiting out its connect timeout on an open socket.
                    closeQuietly(client);
                    closeQuietly(upstream);
                    throw down;
                }
                // As ZooKeeper's own sockets: without it, Nagle's algorithm and delayed acknowledgements hold each
                // small packet the proxy forwards for about 40 ms.
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                AtomicBoolean cut = new AtomicBoolean();
                start(() -> requests(client, upstream, cut), "faulty-link-requests");
                start(() -> replies(upstream, client, cut), "faulty-link-replies");
            } catch (IOException ex) {
                if (!closed) {
                    sleepBriefly();
                }
            }
        }
    }

    /** Client to server: forwards packet by packet, watching for the armed write multi. */
    private void requests(Socket client, Socket upstream, AtomicBoolean cut) {
        try (DataInputStream in = new DataInputStream(client.getInputStream())) {
            OutputStream out = upstream.getOutputStream();
            boolean connectRequest = true;
            while (true) {
                int length = in.readInt();
                byte[] packet = in.readNBytes(length);
                if (packet.length < length) {
                    throw new EOFException();
                }
                boolean transaction = !connectRequest && length >= 8
                        && ((packet[4] & 0xff) << 24 | (packet[5] & 0xff) << 16 | (packet[6] & 0xff) << 8
                        | (packet[7] & 0xff)) == OP_MULTI;
                connectRequest = false;
                if (transaction && holdArmed.get() && contains(packet, holdMarker)
                        && holdArmed.compareAndSet(true, false)) {
                    hold();
                }
                if (transaction && armed.compareAndSet(true, false)) {
                    cut.set(true);
                }
                synchronized (out) {
                    out.write(new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8),
                            (byte) length});
                    out.write(packet);
                    out.flush();
                }
            }
        } catch (IOException ended) {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    /** Server to client: forwards bytes until a cut is due, then closes both sides without forwarding them. */
    private void replies(Socket upstream, Socket client, AtomicBoolean cut) {
        byte[] buffer = new byte[64 << 10];
        try (InputStream in = upstream.getInputStream()) {
            OutputStream out = client.getOutputStream();
            int read;
            while ((read = in.read(buffer)) >= 0) {
                if (cut.get()) {
                    lost.incrementAndGet();
                    break;
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException ended) {
            // Closed by the other direction or by close().
        } finally {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    private static boolean contains(byte[] packet, byte[] marker) {
        for (int at = 0; at + marker.length <= packet.length; at++) {
            if (java.util.Arrays.equals(packet, at, at + marker.length, marker, 0, marker.length)) {
                return true;
            }
        }
        return false;
    }

    private void hold() {
        holding.set(true);
        try {
            release.await(HOLD_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            holding.set(false);
        }
    }

    private static void start(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already closed.
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        releaseHeld();
        listener.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        try {
            acceptor.join(5_000);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
