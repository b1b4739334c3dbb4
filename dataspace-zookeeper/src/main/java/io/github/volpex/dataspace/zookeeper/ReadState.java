package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import io.github.volpex.dataspace.zookeeper.Records.TagRecord;
import org.apache.zookeeper.data.Stat;

/**
 * What one read-only multi saw — the process record, the request's log entry and perhaps the tag guard's version and
 * the tag record — or what this client remembers of them ({@code remembered}: the entry is absent then). A stat is
 * null for a node that does not exist; {@code guardVersion} is −1 when the tag was not read.
 */
record ReadState(ProcessRecord process, Stat processStat, LogEntry entry, boolean tagRead, TagRecord tag,
        Stat tagStat, int guardVersion, boolean remembered, boolean linearizable) {

    /** A stat that carries a version only (null for −1: no node), as the plans read it from a remembered state. */
    static Stat versionOnly(int version) {
        if (version < 0) {
            return null;
        }
        Stat stat = new Stat();
        stat.setVersion(version);
        return stat;
    }
}
