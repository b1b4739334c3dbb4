package io.github.volpex.dataspace.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ZooKeeper ensemble of 1 to 7 servers inside this JVM, on the loopback interface and ports the system chose, for
 * tests and examples: {@code EmbeddedZooKeeper.start(3)} then {@link #connectString()}. Servers can be stopped and
 * restarted one by one (a restarted server keeps its data and its ports), and {@link #leader()} tells which one leads,
 * so tests can fail the leader over.
 *
 * <p>It runs ZooKeeper's own embedded server ({@code ZooKeeperServerEmbedded}), which needs two jars that ZooKeeper's
 * POM leaves out: {@code io.dropwizard.metrics:metrics-core} and {@code org.xerial.snappy:snappy-java} (optional
 * dependencies of this module; add them where you start an ensemble). ZooKeeper's server sets JVM-wide state: its
 * exit procedure (set here to log instead of exiting the JVM when a server dies), a system property per configuration
 * key, and the JVM's default uncaught-exception handler, which the class initializer of its NIO connection factory
 * replaces with one that only logs (so a {@code main} that dies of an exception would end silently when logging is
 * off). This class initializes that factory itself before the first server starts and puts back the handler the JVM
 * had, so an uncaught exception is reported as usual — unless other code in the JVM initialized ZooKeeper's server
 * classes first; ZooKeeper's own threads report theirs through handlers of their own. A stopped server is shut down in
 * process — its sockets close at once — so a hung or partitioned server is not what {@link #stop(int)} simulates.
 *
 * <p>Thread-safe: every method is synchronized.
 *
 * @since 0.1
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
    private static final long START_MILLIS = 30_000;
    private static final int TICK_MILLIS = 500;

    private final Path directory;
    private final boolean ownsDirectory;
    private final Properties[] configurations;
    private final int[] clientPorts;
    private final ZooKeeperServerEmbedded[] servers;
    private boolean closed;

    private EmbeddedZooKeeper(Path directory, boolean ownsDirectory, int count) {
        this.directory = directory;
        this.ownsDirectory = ownsDirectory;
        this.configurations = new Properties[count];
        this.clientPorts = new int[count];
        this.servers = new ZooKeeperServerEmbedded[count];
    }

    /**
     * Starts an ensemble in a temporary directory that {@link #close()} deletes, and waits until it has a leader
     * and every server serves.
     *
     * @param servers the number of servers, in {@code [1, 7]}; 1 runs a standalone server, 3 tolerates one failure
     * @return the running ensemble
     * @throws IllegalArgumentException if {@code servers} is out of range
     * @throws IllegalStateException    if the ensemble did not form within 30 s, or ZooKeeper's server jars are
     *                                  missing
     * @throws UncheckedIOException     if the directory could not be created
     */
    public static EmbeddedZooKeeper start(int servers) {
        try {
            return start(servers, Files.createTempDirectory("volpex-zookeeper-"), true);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot create a temporary directory for ZooKeeper", ex);
        }
    }

    /**
     * Starts an ensemble whose servers keep their data under {@code directory} (one subdirectory per server, left in
     * place by {@link #close()}), and waits until it has a leader and every server serves.
     *
     * @param servers   the number of servers, in {@code [1, 7]}
     * @param directory where the servers keep their data; created if absent
     * @return the running ensemble
     * @throws IllegalArgumentException if {@code servers} is out of range
     * @throws NullPointerException     if {@code directory} is null
     * @throws IllegalStateException    if the ensemble did not form within 30 s, or ZooKeeper's server jars are
     *                                  missing
     * @throws UncheckedIOException     if the directory could not be created
     */
    public static EmbeddedZooKeeper start(int servers, Path directory) {
        return start(servers, Objects.requireNonNull(directory, "directory"), false);
    }

    private static EmbeddedZooKeeper start(int count, Path directory, boolean ownsDirectory) {
        if (count < 1 || count > 7) {
            throw new IllegalArgumentException("servers must be in [1, 7]: " + count);
        }
        requireServerJars();
        ServerClasses.initialize();
        EmbeddedZooKeeper ensemble = new EmbeddedZooKeeper(directory, ownsDirectory, count);
        try {
            ensemble.configure();
            for (int i = 0; i < count; i++) {
                ensemble.launch(i);
            }
            ensemble.awaitQuorum(count);
            return ensemble;
        } catch (RuntimeException | Error ex) {
            ensemble.close();
            throw ex;
        }
    }

    /**
     * Initializes ZooKeeper's NIO connection factory, whose class initializer replaces the JVM's default
     * uncaught-exception handler, and puts back the handler there was. Runs once, before the first server starts.
     */
    private static final class ServerClasses {
        static {
            Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
            try {
                Class.forName("org.apache.zookeeper.server.NIOServerCnxnFactory", true,
                        EmbeddedZooKeeper.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError missing) {
                // requireServerJars names the missing jar; starting a server would fail the same way.
            } finally {
                Thread.setDefaultUncaughtExceptionHandler(before);
            }
        }

        private ServerClasses() {
        }

        static void initialize() {
            // The class initializer did the work.
        }
    }

    private static void requireServerJars() {
        for (String[] jar : new String[][] {
                {"com.codahale.metrics.Reservoir", "io.dropwizard.metrics:metrics-core"},
                {"org.xerial.snappy.SnappyInputStream", "org.xerial.snappy:snappy-java"}}) {
            try {
                Class.forName(jar[0], false, EmbeddedZooKeeper.class.getClassLoader());
            } catch (ClassNotFoundException ex) {
                throw new IllegalStateException("ZooKeeper's embedded server needs " + jar[1]
                        + " on the class path (an optional dependency of volpex-dataspace-zookeeper)", ex);
            }
        }
    }

    /** Chooses every port up front (peers must know each other's) and writes each server's configuration. */
    private void configure() {
        int count = servers.length;
        int[] ports = freePorts(count == 1 ? 1 : 3 * count);
        try {
            for (int i = 0; i < count; i++) {
                Path data = Files.createDirectories(directory.resolve("server-" + (i + 1)).resolve("data"));
                Properties configuration = new Properties();
                configuration.setProperty("tickTime", Integer.toString(TICK_MILLIS));
                configuration.setProperty("initLimit", "20");
                configuration.setProperty("syncLimit", "10");
                configuration.setProperty("dataDir", data.toString());
                configuration.setProperty("clientPort", Integer.toString(ports[i]));
                configuration.setProperty("clientPortAddress", "127.0.0.1");
                configuration.setProperty("admin.enableServer", "false");
                if (count > 1) {
                    Files.writeString(data.resolve("myid"), Integer.toString(i + 1));
                    for (int j = 0; j < count; j++) {
                        configuration.setProperty("server." + (j + 1),
                                "127.0.0.1:" + ports[count + j] + ":" + ports[2 * count + j]);
                    }
                }
                configurations[i] = configuration;
                clientPorts[i] = ports[i];
            }
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot prepare ZooKeeper's data directories under " + directory, ex);
        }
    }

    /** Returns distinct free loopback ports, holding every socket open while choosing. */
    private static int[] freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>(count);
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot find free loopback ports", ex);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // Closing a listening socket that never accepted does not fail in practice.
                }
            }
        }
    }

    private void launch(int index) {
        try {
            ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder()
                    .baseDir(directory.resolve("server-" + (index + 1)))
                    .configuration((Properties) configurations[index].clone())
                    .exitHandler(ExitHandler.LOG_ONLY)
                    .build();
            servers[index] = server;
            server.start(START_MILLIS);
        } catch (Exception ex) {
            throw new IllegalStateException("ZooKeeper server " + (index + 1) + " did not start", ex);
        }
    }

    /** Waits until one server leads and every running server serves (or, standalone, answers). */
    private void awaitQuorum(int running) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MILLIS);
        while (true) {
            int serving = 0;
            int leaders = 0;
            for (int i = 0; i < servers.length; i++) {
                if (servers[i] == null) {
                    continue;
                }
                String mode = mode(i);
                if (mode.equals("leader") || mode.equals("standalone")) {
                    leaders++;
                    serving++;
                } else if (mode.equals("follower")) {
                    serving++;
                }
            }
            if (leaders == 1 && serving == running) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the ZooKeeper ensemble did not form within " + START_MILLIS
                        + " ms: " + serving + " of " + running + " servers serving, " + leaders + " leaders");
            }
            sleep(20);
        }
    }

    /** Asks a server for its mode (leader, follower, standalone); empty if it does not answer. */
    private String mode(int index) {
        try {
            String status = FourLetterWordMain.send4LetterWord("127.0.0.1", clientPorts[index], "srvr", false, 1000);
            for (String line : status.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return line.substring(6).trim();
                }
            }
        } catch (Exception notServing) {
            // Starting, electing or stopped.
        }
        return "";
    }

    /**
     * Returns the connect string of every server, including stopped ones (clients skip them).
     *
     * @return {@code 127.0.0.1:port,…}
     */
    public synchronized String connectString() {
        StringJoiner joiner = new StringJoiner(",");
        for (int port : clientPorts) {
            joiner.add("127.0.0.1:" + port);
        }
        return joiner.toString();
    }

    /**
     * Returns the connect string of one server.
     *
     * @param server the server, in {@code [0, serverCount())}
     * @return {@code 127.0.0.1:port}
     * @throws IndexOutOfBoundsException if {@code server} is out of range
     */
    public synchronized String connectString(int server) {
        return "127.0.0.1:" + clientPorts[Objects.checkIndex(server, clientPorts.length)];
    }

    /**
     * Returns the number of servers, running or stopped.
     *
     * @return the ensemble's size
     */
    public int serverCount() {
        return servers.length;
    }

    /**
     * Returns the server that leads now (the standalone server of a one-server ensemble).
     *
     * @return the leader's index, or -1 when no running server leads (during an election)
     */
    public synchronized int leader() {
        for (int i = 0; i < servers.length; i++) {
            if (servers[i] != null) {
                String mode = mode(i);
                if (mode.equals("leader") || mode.equals("standalone")) {
                    return i;
                }
            }
        }
        return -1;
    }

    /**
     * Tells whether a server runs.
     *
     * @param server the server, in {@code [0, serverCount())}
     * @return whether it was started and not stopped
     * @throws IndexOutOfBoundsException if {@code server} is out of range
     */
    public synchronized boolean isRunning(int server) {
        return servers[Objects.checkIndex(server, servers.length)] != null;
    }

    /**
     * Stops a server (an in-process shutdown: its connections close at once). Does nothing if it is stopped.
     *
     * @param server the server, in {@code [0, serverCount())}
     * @throws IndexOutOfBoundsException if {@code server} is out of range
     */
    public synchronized void stop(int server) {
        ZooKeeperServerEmbedded running = servers[Objects.checkIndex(server, servers.length)];
        if (running != null) {
            servers[server] = null;
            running.close();
        }
    }

    /**
     * Starts a stopped server again with its data and ports, and waits until the ensemble has a leader and every
     * running server serves. Does nothing if it runs.
     *
     * @param server the server, in {@code [0, serverCount())}
     * @throws IndexOutOfBoundsException if {@code server} is out of range
     * @throws IllegalStateException    if the ensemble is closed, or did not form again within 30 s
     */
    public synchronized void restart(int server) {
        Objects.checkIndex(server, servers.length);
        if (closed) {
            throw new IllegalStateException("the ensemble is closed");
        }
        if (servers[server] == null) {
            launch(server);
            int running = 0;
            for (ZooKeeperServerEmbedded candidate : servers) {
                running += candidate == null ? 0 : 1;
            }
            awaitQuorum(running);
        }
    }

    /**
     * Stops every server and, if the ensemble made its own temporary directory, deletes it. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < servers.length; i++) {
            try {
                stop(i);
            } catch (RuntimeException ex) {
                LOG.warn("stopping ZooKeeper server {} failed", i + 1, ex);
            }
        }
        if (ownsDirectory) {
            try (Stream<Path> paths = Files.walk(directory)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException ex) {
                LOG.warn("could not delete {}", directory, ex);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for ZooKeeper", ex);
        }
    }

    @Override
    public synchronized String toString() {
        return "EmbeddedZooKeeper[" + connectString() + (closed ? ", closed]" : "]");
    }
}
