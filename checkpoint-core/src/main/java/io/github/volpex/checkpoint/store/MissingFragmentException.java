package io.github.volpex.checkpoint.store;

import java.io.IOException;

/** A fragment the repository does not hold; internal to the store, reported as MISSING. */
final class MissingFragmentException extends IOException {

    private static final long serialVersionUID = 1L;

    MissingFragmentException(String key) {
        super("no object " + key);
    }
}
