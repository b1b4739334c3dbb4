package io.github.volpex.checkpoint.store;

import java.io.IOException;

/** A fragment whose length, piece checksum or digest is wrong; internal to the store, reported as CORRUPT. */
final class DamagedFragmentException extends IOException {

    private static final long serialVersionUID = 1L;

    DamagedFragmentException(String message) {
        super(message);
    }
}
