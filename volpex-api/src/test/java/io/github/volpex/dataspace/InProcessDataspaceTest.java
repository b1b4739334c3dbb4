package io.github.volpex.dataspace;

/** The contract run against {@link Dataspace#inProcess(int, DataspaceOptions)}. */
class InProcessDataspaceTest extends DataspaceContract {

    @Override
    Dataspace create(int processCount, DataspaceOptions options) {
        return Dataspace.inProcess(processCount, options);
    }
}
