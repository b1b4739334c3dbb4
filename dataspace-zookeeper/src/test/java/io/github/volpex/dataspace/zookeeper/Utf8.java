package io.github.volpex.dataspace.zookeeper;

import java.nio.charset.StandardCharsets;

/** Values as text, for the tests' readable assertions: UTF-8 both ways. */
final class Utf8 {

    private Utf8() {
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] data) {
        return new String(data, StandardCharsets.UTF_8);
    }
}
