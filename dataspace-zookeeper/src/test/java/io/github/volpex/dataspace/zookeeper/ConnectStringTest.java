package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A connect string that cannot name a server is refused at once, with {@link IllegalArgumentException} naming it, by
 * everything that connects — not retried until the connection-loss timeout as an unreachable ensemble would be.
 */
class ConnectStringTest {

    private static final String PREFIX = "connectString must be host:port pairs separated by commas, such as "
            + "zk1:2181,zk2:2181,zk3:2181: ";

    /** Every way of connecting, each given the connect string. */
    private static final List<Consumer<String>> CONNECTS = List.of(
            cs -> ZooKeeperDataspace.connect(cs, "/ns", 2),
            cs -> ZooKeeperDataspace.builder(cs, "/ns").destroy(),
            cs -> ZooKeeperEpochSource.connect(cs, "/epochs").close(),
            cs -> WriterElection.join(cs, "/epochs", "job").close());

    private static void assertRefused(String connectString, String why) {
        for (Consumer<String> connect : CONNECTS) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> connect.accept(connectString));
            assertEquals(PREFIX + "\"" + connectString + "\" (" + why + ")", refused.getMessage());
        }
    }

    @Test
    void strings_that_cannot_name_a_server_are_refused_naming_them() {
        assertRefused("zk1:2181;zk2:2181", "\"zk1:2181;zk2\" is not a host name or an IP address");
        assertRefused("not a connect string", "\"not a connect string\" is not a host name or an IP address");
        assertRefused("", "it names no server");
        assertRefused(" , ", "it names no server");
        assertRefused("127.0.0.1:0", "port 0 of 127.0.0.1 is not in [1, 65535]");
        assertRefused("127.0.0.1:99999", "ZooKeeper's parser refuses it: port out of range:99999");
        assertRefused("127.0.0.1:21x1", "ZooKeeper's parser refuses it: For input string: \"21x1\"");
        assertRefused("127.0.0.1:2181/chroot/", "ZooKeeper's parser refuses it: Path must not end with / character");
        assertRefused("zk-a.invalid:2181,zk-b.invalid:2181", "none of its hosts resolves: zk-a.invalid, zk-b.invalid");
        assertRefused("zk.invalid:2181", "host zk.invalid does not resolve");
    }

    @Test
    void lists_that_name_servers_pass_even_when_some_hosts_do_not_resolve() {
        for (String good : List.of("127.0.0.1:2181", "localhost:2181,127.0.0.1:2182", "localhost",
                "[::1]:2181", "127.0.0.1:2181/app/chroot", "127.0.0.1:2181,gone.invalid:2181", " 127.0.0.1:1 ")) {
            assertEquals(good, ConnectStrings.check(good));
        }
        assertEquals("connectString", assertThrows(NullPointerException.class, () -> ConnectStrings.check(null))
                .getMessage());
    }
}
