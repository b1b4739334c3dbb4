package io.github.volpex.dataspace.zookeeper;

/** Closes test resources in order, every one even when an earlier one fails. */
final class Closing {

    private Closing() {
    }

    /** Closes each non-null resource in turn; rethrows the first failure with the others suppressed. */
    static void all(AutoCloseable... resources) throws Exception {
        Exception failure = null;
        for (AutoCloseable resource : resources) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception ex) {
                if (failure == null) {
                    failure = ex;
                } else {
                    failure.addSuppressed(ex);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
