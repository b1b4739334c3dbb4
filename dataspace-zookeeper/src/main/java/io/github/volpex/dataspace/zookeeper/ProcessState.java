package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import org.apache.zookeeper.data.Stat;

/** A process record and its stat (null when the process has issued nothing: it has no record yet). */
record ProcessState(ProcessRecord record, Stat stat) {
}
