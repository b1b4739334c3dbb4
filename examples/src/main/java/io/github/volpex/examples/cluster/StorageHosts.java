package io.github.volpex.examples.cluster;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.s3.S3Repository;
import io.github.volpex.examples.tour.VolatileRepository;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The storage hosts of a run across processes: S3Proxy servers of the run's own in this JVM, each on its own port, or
 * prefixes {@code <run>/storage-NN/} on S3 endpoints of the user's; with the coordinator's own client of each, for
 * departures, the final count and the clean-up. A host that departs loses everything it held and is away until it
 * rejoins, empty. Used by the coordinator's thread only (the servers serve on threads of their own).
 */
final class StorageHosts {

    /** One host. */
    private static final class Host {
        S3Server server;
        /** When the host, away, may be back ({@link System#nanoTime()}). */
        long rejoinAtNanos;
        S3Repository client;
        VolatileRepository repository;
    }

    private final Host[] hosts;
    private final List<URI> given;
    private final String bucket;
    private final S3Credentials credentials;
    private RunSpec spec;

    /**
     * Describes the hosts; {@link #start} starts the run's own servers.
     *
     * @param count       how many hosts
     * @param given       S3 endpoints of the user's, or empty to start servers of the run's own
     * @param bucket      the bucket
     * @param credentials the credentials the servers take and the clients sign with
     */
    StorageHosts(int count, List<URI> given, String bucket, S3Credentials credentials) {
        this.hosts = new Host[count];
        for (int h = 0; h < count; h++) {
            hosts[h] = new Host();
        }
        this.given = List.copyOf(given);
        this.bucket = bucket;
        this.credentials = credentials;
    }

    /** Starts the run's own servers on loopback, on ports of their own (nothing when the endpoints are given). */
    void start() {
        if (given.isEmpty()) {
            for (Host host : hosts) {
                host.server = S3Server.start("127.0.0.1", 0, bucket, credentials);
            }
        }
    }

    /** How many hosts there are. */
    int size() {
        return hosts.length;
    }

    /** The endpoints the replicas reach the hosts at: the servers', or those given. */
    List<URI> endpoints() {
        if (!given.isEmpty()) {
            return given;
        }
        List<URI> endpoints = new ArrayList<>();
        for (Host host : hosts) {
            endpoints.add(host.server.endpoint());
        }
        return endpoints;
    }

    /** Where the hosts are, for the progress lines. */
    String describe() {
        if (!given.isEmpty()) {
            return hosts.length + " storage hosts on " + given;
        }
        StringBuilder ports = new StringBuilder();
        for (Host host : hosts) {
            ports.append(ports.length() == 0 ? "" : " ").append(host.server.port());
        }
        return hosts.length + " storage hosts (S3Proxy) in this JVM on 127.0.0.1, ports " + ports;
    }

    /**
     * Opens the coordinator's own client of every host.
     *
     * @param run the run, which names each host's prefix
     */
    void connect(RunSpec run) {
        this.spec = run;
        for (int h = 0; h < hosts.length; h++) {
            hosts[h].client = run.repository(h, credentials);
            hosts[h].repository = new VolatileRepository(hosts[h].client);
        }
    }

    /**
     * Host {@code h} departs: everything it held is lost (a server of the run's stops, on S3 of the user's the run's
     * objects under its prefix are deleted at once); it may rejoin at {@code rejoinAtNanos}.
     *
     * @param h             the host
     * @param rejoinAtNanos when it may rejoin ({@link System#nanoTime()})
     * @return the objects lost
     * @throws IOException if its objects could not be counted or deleted
     */
    long depart(int h, long rejoinAtNanos) throws IOException {
        Host host = hosts[h];
        long lost;
        if (host.server != null) {
            lost = host.repository.list("").size();
            host.server.depart();
        } else {
            lost = host.repository.depart();
        }
        host.rejoinAtNanos = rejoinAtNanos;
        return lost;
    }

    /** Whether host {@code h}, if away, may rejoin now. */
    boolean mayRejoin(int h) {
        return System.nanoTime() - hosts[h].rejoinAtNanos >= 0;
    }

    /** Lets host {@code h}, if away, rejoin at once: the run is over. */
    void mayRejoinNow(int h) {
        hosts[h].rejoinAtNanos = System.nanoTime();
    }

    /** Host {@code h} is back, empty. */
    void rejoin(int h) {
        if (hosts[h].server != null) {
            hosts[h].server.rejoin();
        }
    }

    /**
     * Counts what host {@code h} holds.
     *
     * @param h the host
     * @return {@code {objects, bytes}}
     * @throws UncheckedIOException if it cannot be listed
     */
    long[] contents(int h) {
        VolatileRepository repository = hosts[h].repository;
        long objects = 0;
        long bytes = 0;
        try {
            for (String key : repository.list("")) {
                objects++;
                bytes += repository.get(key).map(value -> value.length).orElse(0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list storage host " + h, e);
        }
        return new long[] {objects, bytes};
    }

    /** The coordinator's clients of the hosts, if every host has one. */
    List<FragmentRepository> repositories() {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (Host host : hosts) {
            if (host.repository == null) {
                return List.of();
            }
            repositories.add(host.repository);
        }
        return repositories;
    }

    /**
     * Stops the run's servers, or, on S3 of the user's, deletes what the run stored under each host's prefix; closes
     * the clients.
     *
     * @param progress where to say what could not be deleted
     */
    void stop(PrintStream progress) {
        for (int h = 0; h < hosts.length; h++) {
            Host host = hosts[h];
            if (host.client != null) {
                if (host.server == null) {
                    try {
                        host.repository.depart();
                    } catch (IOException e) {
                        progress.println("  could not delete the run's objects on " + spec.endpoint(h) + ": "
                                + e.getMessage());
                    }
                }
                host.client.close();
            }
            if (host.server != null) {
                host.server.close();
            }
        }
    }
}
