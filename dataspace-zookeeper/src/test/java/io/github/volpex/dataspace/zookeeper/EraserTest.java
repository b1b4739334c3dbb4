package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.testsupport.SearchDepth;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bounded listing and the eraser on their own, on a real server, with a client that accepts answers of at most
 * 8 KiB: a listing that fits is returned whole (pipelined or not), one that cannot fit fails typed instead of retrying
 * forever, and the eraser deletes trees of any shape — also one cut short before, also while another client keeps
 * adding children — without ever needing a listing larger than one znode's children.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EraserTest {

    private static final int LIMIT = 8 << 10;
    private static TestEnsemble ensemble;
    private Session session;
    private Listing listing;
    private ZooKeeper raw;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/eraser");
        ensemble.inspector().zooKeeper().create("/eraser", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    @BeforeEach
    void connect() {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKConfig.JUTE_MAXBUFFER, Integer.toString(LIMIT));
        session = new Session(ensemble.connectString(), 10_000, config, event -> { }, () -> { });
        listing = new Listing(session, session.maxAnswerBytes(), during -> {
            if (!session.awaitConnected(System.nanoTime() + TimeUnit.SECONDS.toNanos(30))) {
                throw new AssertionError("no connection while " + during);
            }
        });
        raw = ensemble.inspector().zooKeeper();
        assertTrue(session.awaitConnected(System.nanoTime() + TimeUnit.SECONDS.toNanos(30)));
    }

    @AfterEach
    void close() {
        session.close();
    }

    private void create(String path) throws Exception {
        raw.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }

    /** Creates {@code count} children of {@code parent} with names of {@code nameLength} characters, pipelined. */
    private List<String> children(String parent, int count, int nameLength) throws Exception {
        List<String> names = new ArrayList<>();
        List<CompletableFuture<Void>> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String number = Integer.toString(i);
            String name = "c".repeat(Math.max(0, nameLength - number.length())) + number;
            CompletableFuture<Void> done = new CompletableFuture<>();
            raw.create(parent + "/" + name, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                    (rc, path, ctx, createdName) -> {
                        if (rc == 0) {
                            done.complete(null);
                        } else {
                            done.completeExceptionally(new AssertionError(path + ": " + KeeperException.Code.get(rc)));
                        }
                    }, null);
            created.add(done);
            names.add(name);
        }
        for (CompletableFuture<Void> done : created) {
            done.get(30, TimeUnit.SECONDS);
        }
        return names;
    }

    @Test
    void a_listing_that_fits_is_whole_and_one_that_cannot_fails_naming_the_znode() throws Exception {
        String root = ensemble.freshNamespace();
        create(root);
        create(root + "/fits");
        create(root + "/too-many");
        List<String> fits = children(root + "/fits", 100, 20);       // 2.4 KiB
        children(root + "/too-many", 400, 30);                         // 13.6 KiB
        assertEquals(new HashSet<>(fits), new HashSet<>(listing.children(root + "/fits", 20, "a")));
        assertNull(listing.children(root + "/absent", 20, "a"));
        // 400 names that would fit if they were short: a second lost connection tells.
        ListingTooLargeException tooLarge = assertThrows(ListingTooLargeException.class,
                () -> listing.children(root + "/too-many", 30, "listing a test directory"));
        assertEquals(root + "/too-many", tooLarge.path());
        assertEquals(400, tooLarge.children());
        assertEquals(LIMIT, tooLarge.limitBytes());
        assertEquals(Layout.listingBytes(400, 30) + 1, tooLarge.neededBytes());
        // 2,000 names could not fit even if they were one byte long: the first lost connection tells.
        create(root + "/far-too-many");
        children(root + "/far-too-many", 2_000, 4);
        assertEquals(2_000, assertThrows(ListingTooLargeException.class,
                () -> listing.children(root + "/far-too-many", 4, "listing a test directory")).children());
        List<List<String>> pipelined = listing.children(List.of(root + "/fits", root + "/absent"), 20, "b");
        assertEquals(100, pipelined.get(0).size());
        assertNull(pipelined.get(1));
        assertTrue(session.awaitConnected(System.nanoTime() + TimeUnit.SECONDS.toNanos(30)),
                "the session survived the answers it refused");
    }

    @Test
    void a_tree_of_any_shape_is_erased_also_when_cut_short_before_and_grown_meanwhile() {
        SearchDepth.eachSeed("volpex.zookeeper.eraser.seed", 1, this::eraseTreeOfShape);
    }

    /** One tree, its shape drawn from {@code seed}, under a namespace of its own. */
    private void eraseTreeOfShape(long seed) throws Exception {
        String root = ensemble.freshNamespace();
        create(root);
        SplittableRandom shape = new SplittableRandom(seed);
        List<String> all = new ArrayList<>();
        List<String> level = List.of(root);
        for (int depth = 0; depth < 4; depth++) {
            List<String> next = new ArrayList<>();
            for (String parent : level) {
                int count = shape.nextInt(depth == 0 ? 12 : 5);
                for (int i = 0; i < count; i++) {
                    String child = parent + "/n" + i;
                    create(child);
                    next.add(child);
                    all.add(child);
                }
            }
            level = next;
        }
        // A bucket of more children than one 8 KiB answer holds if listed whole with the rest: 300 of 20 characters.
        create(root + "/wide");
        children(root + "/wide", 300, 20);
        // An earlier erase cut short: some znodes (leaves only, as deletes go) are gone already.
        for (String path : all) {
            if (shape.nextInt(3) == 0 && raw.exists(path, false).getNumChildren() == 0) {
                raw.delete(path, -1);
            }
        }
        create(root + "/growing");
        AtomicBoolean growing = new AtomicBoolean(true);
        CompletableFuture<Integer> grower = CompletableFuture.supplyAsync(() -> {
            int created = 0;
            while (growing.get() && created < 200) {
                try {
                    raw.create(root + "/growing/late-" + created, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                            CreateMode.PERSISTENT);
                    created++;
                } catch (KeeperException.NoNodeException gone) {
                    return created;
                } catch (Exception ex) {
                    throw new IllegalStateException(ex);
                }
            }
            return created;
        });
        Eraser eraser = new Eraser(session, listing, during -> {
            if (!session.awaitConnected(System.nanoTime() + TimeUnit.SECONDS.toNanos(30))) {
                throw new AssertionError("no connection while " + during);
            }
        });
        try {
            eraser.erase(List.of(root), 30, "erasing a test tree");
        } finally {
            growing.set(false);
        }
        grower.get(30, TimeUnit.SECONDS);
        assertNull(raw.exists(root, false), "erased (tree shape seed " + seed + ")");
        assertTrue(eraser.deleted() >= 301, "counted: " + eraser.deleted());
    }
}
