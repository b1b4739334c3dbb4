package io.github.volpex.dataspace.zookeeper;

import static io.github.volpex.dataspace.zookeeper.Utf8.bytes;
import static io.github.volpex.dataspace.zookeeper.Utf8.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Replica;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client that accepts answers of at most 8 KiB faces a namespace of 400 tags and 400 blobs, as a client with the
 * default 1 MiB faces one 128 times as large (about 50,000 of each): every listing the dataspace needs — garbage
 * collection on connect, an explicit collection, a destroy — must fit one answer, because a client drops its
 * connection on an answer too large and the listing can never succeed. A znode that does outgrow one answer (here,
 * children that the dataspace did not create) fails the operation with a typed exception naming it and the remedy;
 * nothing loops or waits forever.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SmallAnswerTest {

    private static final int SMALL = 8 << 10;
    private static final int ENTRIES = 400;
    private static TestEnsemble ensemble;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/small");
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    /** A client configuration whose answers are limited to 8 KiB. */
    private static ZKClientConfig small() {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKConfig.JUTE_MAXBUFFER, Integer.toString(SMALL));
        return config;
    }

    private static ZooKeeperDataspace.Builder builder(String namespace, boolean small) {
        ZooKeeperDataspace.Builder builder = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(2).inlineLimitBytes(0);
        return small ? builder.clientConfig(small()) : builder;
    }

    @Test
    void a_namespace_far_larger_than_one_answer_connects_collects_and_is_destroyed() throws Exception {
        String namespace = ensemble.freshNamespace();
        try (ZooKeeperDataspace writer = builder(namespace, false).connect()) {
            Replica replica = writer.open(0);
            for (int i = 0; i < ENTRIES; i++) {
                replica.put("a-tag-with-a-longer-name-" + i, bytes("value " + i)); // each a blob of its own
            }
        }
        // 400 tags of 28 characters, 400 references of 64 and 400 blob keys of about 100 would take 13, 27 and 40 KiB
        // listed each under one znode: none fits an 8 KiB answer.
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (ZooKeeperDataspace reader = builder(namespace, true).connect()) {
                assertEquals("value 7", text(reader.open(1).get("a-tag-with-a-longer-name-7")));
                assertEquals(0, reader.collectGarbage());
                reader.destroy();
            }
        }, "a client with small answers connects, collects garbage and destroys the namespace");
        assertNull(ensemble.inspector().zooKeeper().exists(namespace, false), "destroyed");
    }

    @Test
    void a_znode_that_no_answer_can_list_fails_the_destroy_naming_it_and_the_remedy() throws Exception {
        String namespace = ensemble.freshNamespace();
        try (ZooKeeperDataspace writer = builder(namespace, false).connect()) {
            writer.open(0).put("x", bytes("v"));
        }
        String bucket = new Layout(namespace).tagBucketPath("x");
        ZooKeeper raw = ensemble.inspector().zooKeeper();
        for (int i = 0; i < 600; i++) {
            raw.create(bucket + "/" + "foreign-".repeat(5) + i, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
        }
        ListingTooLargeException tooLarge = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (ZooKeeperDataspace reader = builder(namespace, true).connect()) {
                return assertThrows(ListingTooLargeException.class, reader::destroy);
            }
        }, "the destroy fails instead of looping");
        assertEquals(bucket, tooLarge.path());
        assertEquals(601, tooLarge.children());
        assertEquals(SMALL, tooLarge.limitBytes());
        assertTrue(tooLarge.neededBytes() > SMALL, tooLarge.toString());
        assertTrue(tooLarge.getMessage().contains("jute.maxbuffer of at least " + tooLarge.neededBytes()),
                tooLarge.getMessage());
        // The remedy: a client that accepts larger answers finishes the destroy the failed one began.
        try (ZooKeeperDataspace remedied = builder(namespace, false).connect()) {
            assertTrue(remedied.open(0).tryRead("x").isEmpty(), "the destroy was finished: a new, empty namespace");
            remedied.destroy();
        }
        assertNull(raw.exists(namespace, false), "destroyed");
    }
}
