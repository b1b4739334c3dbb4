package io.github.volpex.testkit.selftest;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.testkit.DataspaceContract;

/**
 * The dataspace contract against {@link Dataspace#inProcess(int, DataspaceOptions)}, from a package of its own as a
 * user's test would be.
 */
class InProcessDataspaceContractTest extends DataspaceContract {

    @Override
    protected Dataspace create(int processCount, DataspaceOptions options) {
        return Dataspace.inProcess(processCount, options);
    }
}
