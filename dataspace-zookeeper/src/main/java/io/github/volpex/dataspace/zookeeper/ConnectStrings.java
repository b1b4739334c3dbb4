package io.github.volpex.dataspace.zookeeper;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.zookeeper.client.ConnectStringParser;

/**
 * Checks a ZooKeeper connect string before a client is opened with it: ZooKeeper's client takes any string, and one
 * that cannot name a server (semicolons instead of commas, a stray word, a host that does not resolve) makes it retry
 * for as long as the caller lets it, so that the mistake surfaces as an unreachable ensemble a minute later. Refused
 * here, at once, with {@link IllegalArgumentException} naming the string: what ZooKeeper's own parser refuses (a bad
 * port, a bad chroot path), an empty list, a host that is neither a host name nor an IP address, port 0, and a list
 * none of whose hosts resolves. A list of which some hosts resolve is taken (a server may be gone from the DNS while
 * the others serve).
 */
final class ConnectStrings {

    /** A host name (RFC 1123 labels; underscores, as some private networks use, are let through) or an IPv4 address. */
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}"
                    + "[A-Za-z0-9_])?)*\\.?");
    /** The characters of an IPv6 address, with an optional zone. */
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?");
    private static final String EXAMPLE = "zk1:2181,zk2:2181,zk3:2181";

    private ConnectStrings() {
    }

    /**
     * Checks {@code connectString} and returns it.
     *
     * @throws NullPointerException     if it is null
     * @throws IllegalArgumentException if it cannot name a server (see the class description)
     */
    static String check(String connectString) {
        Objects.requireNonNull(connectString, "connectString");
        List<InetSocketAddress> servers;
        try {
            servers = new ConnectStringParser(connectString).getServerAddresses();
        } catch (IllegalArgumentException ex) {
            throw refused(connectString, "ZooKeeper's parser refuses it: " + ex.getMessage());
        }
        if (servers.isEmpty()) {
            throw refused(connectString, "it names no server");
        }
        List<String> unresolved = new ArrayList<>();
        for (InetSocketAddress server : servers) {
            String host = server.getHostString();
            if (!HOST_NAME.matcher(host).matches() && !(host.indexOf(':') >= 0 && IPV6.matcher(host).matches())) {
                throw refused(connectString, "\"" + host + "\" is not a host name or an IP address");
            }
            if (server.getPort() < 1) {
                throw refused(connectString, "port " + server.getPort() + " of " + host + " is not in [1, 65535]");
            }
            try {
                InetAddress.getAllByName(host);
            } catch (UnknownHostException ex) {
                unresolved.add(host);
            }
        }
        if (unresolved.size() == servers.size()) {
            throw refused(connectString, unresolved.size() == 1 ? "host " + unresolved.get(0) + " does not resolve"
                    : "none of its hosts resolves: " + String.join(", ", unresolved));
        }
        return connectString;
    }

    private static IllegalArgumentException refused(String connectString, String why) {
        return new IllegalArgumentException("connectString must be host:port pairs separated by commas, such as "
                + EXAMPLE + ": \"" + connectString + "\" (" + why + ")");
    }
}
