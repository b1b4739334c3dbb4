package io.github.volpex.examples.cluster;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.s3.S3Repository;
import io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace;
import io.github.volpex.dataspace.zookeeper.ZooKeeperEpochSource;
import io.github.volpex.examples.remd.RemdSetup;
import io.github.volpex.examples.tour.LifetimeLaw;
import io.github.volpex.examples.tour.StoragePool;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZKUtil;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * What every JVM of one run of the tour across processes must agree on — the physics, the virtual costs, the host
 * laws, where the storage hosts are — published by the coordinator as the data of the run's znode
 * {@code /volpex-tour/<run>} (Java properties text), so that a replica needs only the ensemble, the run and its
 * process to join. Under the run's znode live the dataspace ({@code dataspace}) and the checkpoint epochs
 * ({@code epochs}). Checkpoints go to {@code <bucket>/<run>/storage-NN/} on the storage hosts. Immutable.
 *
 * @param run                 the run's name: letters, digits and dashes
 * @param setup               the replica-exchange physics
 * @param stepSeconds         virtual seconds one step of sampling takes
 * @param checkpointSeconds   virtual seconds a checkpoint costs, {@code V}
 * @param downloadSeconds     virtual seconds a restart takes to fetch its checkpoint, {@code T_d}
 * @param computeLaw          the lifetime law of compute hosts
 * @param storageHosts        how many storage hosts
 * @param storageLaw          the lifetime law of a typical storage host
 * @param endpoints           the S3 endpoints; storage host {@code i} is on {@code endpoints[i % size]}
 * @param bucket              the bucket
 * @param region              the S3 region
 */
record RunSpec(String run, RemdSetup setup, double stepSeconds, double checkpointSeconds, double downloadSeconds,
               LifetimeLaw computeLaw, int storageHosts, LifetimeLaw storageLaw, List<URI> endpoints, String bucket,
               String region) {

    /** The znode under which every run lives. */
    static final String ROOT = "/volpex-tour";
    /** Every read log keeps a whole run: a process restarted from scratch replays all it did. */
    static final int READ_LOG_CAPACITY = 65_536;

    /** Validates and copies. */
    RunSpec {
        if (!run.matches("[A-Za-z0-9-]{1,64}")) {
            throw new IllegalArgumentException("run must be 1 to 64 letters, digits and dashes: " + run);
        }
        endpoints = List.copyOf(endpoints);
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("at least one S3 endpoint is needed");
        }
    }

    /** The run's znode. */
    String path() {
        return ROOT + "/" + run;
    }

    /** The dataspace's namespace. */
    String namespace() {
        return path() + "/dataspace";
    }

    /** Where the checkpoint epochs of the run's jobs live. */
    String epochsPath() {
        return path() + "/epochs";
    }

    /** The key prefix of storage host {@code index}. */
    String keyPrefix(int index) {
        return run + "/" + StoragePool.id(index) + "/";
    }

    /** The endpoint of storage host {@code index}. */
    URI endpoint(int index) {
        return endpoints.get(index % endpoints.size());
    }

    /**
     * A client of storage host {@code index}: its endpoint and key prefix, short timeouts (a departed host refuses
     * connections at once; one that hangs must not hold a commit for minutes) and two attempts.
     */
    S3Repository repository(int index, S3Credentials credentials) {
        return S3Repository.builder(bucket).endpoint(endpoint(index)).pathStyle(true).region(region)
                .credentials(credentials.accessKeyId(), credentials.secretAccessKey())
                .keyPrefix(keyPrefix(index)).id(StoragePool.id(index))
                .timeouts(Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(10)).maxAttempts(2).build();
    }

    /** The storage pool every JVM of the run derives alike. */
    StoragePool pool() {
        return StoragePool.draw(storageHosts, storageLaw, setup.seed());
    }

    /** The checkpoint job of a process. */
    static String jobId(int process) {
        return "remd-" + process;
    }

    byte[] toBytes() {
        Properties p = new Properties();
        p.setProperty("run", run);
        p.setProperty("processes", Integer.toString(setup.processes()));
        p.setProperty("lowestKelvin", Double.toString(setup.lowestKelvin()));
        p.setProperty("highestKelvin", Double.toString(setup.highestKelvin()));
        p.setProperty("beads", Integer.toString(setup.beads()));
        p.setProperty("steps", Integer.toString(setup.steps()));
        p.setProperty("sweeps", Integer.toString(setup.sweeps()));
        p.setProperty("seed", Long.toString(setup.seed()));
        p.setProperty("stepSeconds", Double.toString(stepSeconds));
        p.setProperty("checkpointSeconds", Double.toString(checkpointSeconds));
        p.setProperty("downloadSeconds", Double.toString(downloadSeconds));
        p.setProperty("computeShape", Double.toString(computeLaw.shape()));
        p.setProperty("computeScaleSeconds", Double.toString(computeLaw.scaleSeconds()));
        p.setProperty("storageHosts", Integer.toString(storageHosts));
        p.setProperty("storageShape", Double.toString(storageLaw.shape()));
        p.setProperty("storageScaleSeconds", Double.toString(storageLaw.scaleSeconds()));
        List<String> uris = new ArrayList<>();
        for (URI endpoint : endpoints) {
            uris.add(endpoint.toString());
        }
        p.setProperty("endpoints", String.join(",", uris));
        p.setProperty("bucket", bucket);
        p.setProperty("region", region);
        StringWriter text = new StringWriter();
        try {
            p.store(text, "Volpex tour across processes");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    static RunSpec fromBytes(byte[] bytes) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(new String(bytes, StandardCharsets.UTF_8)));
            RemdSetup setup = new RemdSetup(Integer.parseInt(get(p, "processes")),
                    Double.parseDouble(get(p, "lowestKelvin")), Double.parseDouble(get(p, "highestKelvin")),
                    Integer.parseInt(get(p, "beads")), Integer.parseInt(get(p, "steps")),
                    Integer.parseInt(get(p, "sweeps")), Long.parseLong(get(p, "seed")));
            List<URI> endpoints = new ArrayList<>();
            for (String uri : get(p, "endpoints").split(",")) {
                endpoints.add(URI.create(uri));
            }
            return new RunSpec(get(p, "run"), setup, Double.parseDouble(get(p, "stepSeconds")),
                    Double.parseDouble(get(p, "checkpointSeconds")), Double.parseDouble(get(p, "downloadSeconds")),
                    new LifetimeLaw(Double.parseDouble(get(p, "computeShape")),
                            Double.parseDouble(get(p, "computeScaleSeconds"))),
                    Integer.parseInt(get(p, "storageHosts")),
                    new LifetimeLaw(Double.parseDouble(get(p, "storageShape")),
                            Double.parseDouble(get(p, "storageScaleSeconds"))),
                    endpoints, get(p, "bucket"), get(p, "region"));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("not the description of a tour run: " + e.getMessage(), e);
        }
    }

    private static String get(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("no " + key);
        }
        return value;
    }

    /** Publishes the run: creates its znode (and {@link #ROOT}) with this description. */
    void publish(String connectString, Duration timeout) {
        withClient(connectString, timeout, zk -> {
            try {
                zk.create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException exists) {
                // Other runs made it.
            }
            zk.create(path(), toBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            return null;
        });
    }

    /** Reads the description of {@code run} from the ensemble. */
    static RunSpec read(String connectString, String run, Duration timeout) {
        return withClient(connectString, timeout, zk -> {
            try {
                return fromBytes(zk.getData(ROOT + "/" + run, false, null));
            } catch (KeeperException.NoNodeException e) {
                throw new IllegalStateException("the ensemble at " + connectString + " has no tour run " + run
                        + " (no znode " + ROOT + "/" + run + ")");
            }
        });
    }

    /** Deletes the run's znode and everything under it, and {@link #ROOT} once no run is left in it. */
    void delete(String connectString, Duration timeout) {
        withClient(connectString, timeout, zk -> {
            ZKUtil.deleteRecursive(zk, path());
            try {
                zk.delete(ROOT, -1);
            } catch (KeeperException.NotEmptyException | KeeperException.NoNodeException otherRuns) {
                // Other runs use it, or another run's clean-up deleted it.
            }
            return null;
        });
    }

    /** Something done with a connected ZooKeeper client. */
    @FunctionalInterface
    private interface ClientCall<T> {
        T run(ZooKeeper zk) throws KeeperException, InterruptedException;
    }

    /**
     * Deletes everything of the run from services that outlive it: every process's job — its checkpoints on every
     * storage host, of every epoch, and its epoch counter, forced, since the replicas were just killed and their
     * election sessions may not have expired yet — then the dataspace, destroyed without its settings, and the run's
     * description. A storage host's own clean-up removes whatever else the run left under its prefix.
     *
     * @param connectString the ensemble
     * @param repositories  the storage hosts, in order; the checkpoints are left if not all are given
     * @throws RuntimeException if the ensemble or a storage host refuses
     */
    void deleteAll(String connectString, List<FragmentRepository> repositories) {
        try (ZooKeeperEpochSource epochs = ZooKeeperEpochSource.connect(connectString, epochsPath())) {
            if (repositories.size() == storageHosts) {
                CheckpointStore store = pool().store(repositories, () -> StoragePool.objective(1, 1, 1, 0))
                        .epochs(epochs).build();
                for (int process = 0; process < setup.processes(); process++) {
                    store.deleteJob(jobId(process), true);
                }
            }
            ZooKeeperDataspace.builder(connectString, namespace()).destroy();
            delete(connectString, Duration.ofSeconds(30));
        }
    }

    private static <T> T withClient(String connectString, Duration timeout, ClientCall<T> call) {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk;
        try {
            zk = new ZooKeeper(connectString, (int) Math.min(timeout.toMillis(), 30_000), event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            });
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot connect to ZooKeeper at \"" + connectString + "\": "
                    + e.getMessage(), e);
        }
        try {
            if (!connected.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("no ZooKeeper server of " + connectString + " answered within "
                        + timeout.toSeconds() + " s");
            }
            return call.run(zk);
        } catch (KeeperException e) {
            throw new IllegalStateException("ZooKeeper at " + connectString + " refused: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while talking to ZooKeeper at " + connectString, e);
        } finally {
            try {
                zk.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
