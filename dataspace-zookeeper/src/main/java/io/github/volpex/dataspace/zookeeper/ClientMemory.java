package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import io.github.volpex.dataspace.zookeeper.Records.TagRecord;
import io.github.volpex.dataspace.zookeeper.Records.Value;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.zookeeper.data.Stat;

/**
 * What one client remembers of the namespace, so that a request may commit without reading first and eviction need
 * not read the entries it deletes: the highest request number seen of each process, the last known record and version
 * of each process and of the most recently used tags (with their guard's version), the size and value of recent log
 * entries, and the hashed tag names whose dictionary entry exists. Nothing here is trusted blindly: every commit made
 * on a remembered state is conditional on the versions remembered, so a state that moved on makes it fail and the
 * request read. Bounded: {@code tagCount} tags holding at most {@code tagBytes} bytes of inline values together and
 * {@code entryCount} entries, the least recently used going first. Thread-safe.
 */
final class ClientMemory {

    /** Tag records whose last known state a client keeps, for requests that commit without reading first. */
    static final int TAG_CACHE_SIZE = 4_096;
    /** Bytes of inline values the remembered tag records may hold together; the least recently used go first. */
    static final long TAG_CACHE_BYTES = 4L << 20;
    /** Log entries whose size and value a client keeps, for evictions. */
    static final int ENTRY_CACHE_SIZE = 4_096;

    /** A process record this client last saw or committed, and its version (−1: the process has no record yet). */
    record KnownProcess(ProcessRecord record, int version) {
    }

    /**
     * A tag record this client last saw or committed and its version (−1: absent, record empty), and a version of its
     * guard seen no later than the record: while the guard keeps that version, the record was not deleted since, so
     * the same version means the same record (a deleted and re-created record starts at version 0 again).
     */
    record KnownTag(TagRecord record, int version, int guardVersion) {
        /** The bytes of its inline value, which the memory's byte bound counts. */
        long bytes() {
            return record.value == null || record.value.isBlob() ? 0 : record.value.inline.length;
        }
    }

    /** What eviction needs of a log entry: its data bytes and its value (for blob references). */
    record EntryMeta(long bytes, Value value) {
        static EntryMeta of(LogEntry entry) {
            return new EntryMeta(entry.dataBytes(), entry.value);
        }
    }

    private final int tagCount;
    private final long tagBytes;
    private final AtomicLongArray knownIssued;
    /** The last known record and version of each process, for requests that commit without reading first. */
    private final AtomicReferenceArray<KnownProcess> knownProcesses;
    /** In access order; guarded by itself, as is {@link #knownTagBytes}. */
    private final LinkedHashMap<String, KnownTag> knownTags = new LinkedHashMap<>(64, 0.75f, true);
    private long knownTagBytes;
    /** In access order; guarded by itself. */
    private final Map<Long, EntryMeta> entryCache;
    private final Set<String> knownDictionary = ConcurrentHashMap.newKeySet();

    ClientMemory(int processCount) {
        this(processCount, TAG_CACHE_SIZE, TAG_CACHE_BYTES, ENTRY_CACHE_SIZE);
    }

    ClientMemory(int processCount, int tagCount, long tagBytes, int entryCount) {
        this.tagCount = tagCount;
        this.tagBytes = tagBytes;
        this.knownIssued = new AtomicLongArray(processCount);
        this.knownProcesses = new AtomicReferenceArray<>(processCount);
        this.entryCache = new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, EntryMeta> eldest) {
                return size() > entryCount;
            }
        };
    }

    // ---- processes --------------------------------------------------------------------------------------------------

    /** The highest request number this client has seen issued for the process (0: none). */
    long knownIssued(int processId) {
        return knownIssued.get(processId);
    }

    /** Records that the process has issued request {@code issued} (the known number never goes down). */
    void sawIssued(int processId, long issued) {
        knownIssued.accumulateAndGet(processId, issued, Math::max);
    }

    /** Remembers a process record read with {@code stat} (null: the process has no record yet). */
    void remember(int processId, ProcessRecord record, Stat stat) {
        knownProcesses.set(processId, new KnownProcess(record, stat == null ? -1 : stat.getVersion()));
    }

    // ---- tags -------------------------------------------------------------------------------------------------------

    /**
     * Remembers a tag record at {@code version} (−1: absent), read no earlier than the guard at {@code guardVersion}.
     */
    void remember(String name, TagRecord record, int version, int guardVersion) {
        KnownTag known = new KnownTag(record, version, guardVersion);
        synchronized (knownTags) {
            knownTagBytes += known.bytes() - bytesOf(knownTags.put(name, known));
            Iterator<KnownTag> eldest = knownTags.values().iterator();
            while (knownTags.size() > tagCount || knownTagBytes > tagBytes) {
                knownTagBytes -= eldest.next().bytes(); // the one just put is the last: it stays if it fits alone
                eldest.remove();
            }
        }
    }

    private static long bytesOf(KnownTag known) {
        return known == null ? 0 : known.bytes();
    }

    /** Forgets what a request's commit found out of date (or could not settle): its process and its tag. */
    void forget(int processId, String name) {
        knownProcesses.set(processId, null);
        synchronized (knownTags) {
            knownTagBytes -= bytesOf(knownTags.remove(name));
        }
    }

    /** Bytes of inline values the remembered tag records hold. */
    long rememberedTagBytes() {
        synchronized (knownTags) {
            return knownTagBytes;
        }
    }

    /** How many tag records are remembered. */
    int rememberedTags() {
        synchronized (knownTags) {
            return knownTags.size();
        }
    }

    /**
     * The state a leading request may commit on without reading first: the process record this client last saw or
     * committed names request r − 1 complete, and the tag record's state is remembered with its guard. Every write of
     * the commit is conditional on those versions (and on the guard's), so a state that moved on makes it fail, and
     * the request reads. Null when nothing usable is remembered.
     */
    ReadState rememberedState(Call call) {
        KnownProcess process = knownProcesses.get(call.processId);
        if (process == null || process.record.pending() || process.record.issued != call.requestNumber - 1
                || knownIssued.get(call.processId) >= call.requestNumber) {
            return null;
        }
        KnownTag tag;
        synchronized (knownTags) {
            tag = knownTags.get(call.name);
        }
        if (tag == null) {
            return null;
        }
        return new ReadState(process.record, ReadState.versionOnly(process.version), null, true, tag.record,
                ReadState.versionOnly(tag.version), tag.guardVersion, true, false);
    }

    /** Remembers what a committed transaction of {@code call} wrote: records, the tag, entries, the high-water mark. */
    void committed(Call call, Planner.Txn txn) {
        for (Map.Entry<Integer, KnownProcess> written : txn.processesAfter.entrySet()) {
            knownProcesses.set(written.getKey(), written.getValue());
        }
        remember(call.name, txn.tagAfter, txn.tagVersionAfter,
                txn.tagDeleted ? txn.guardVersion + 1 : txn.guardVersion);
        for (Map.Entry<Long, LogEntry> created : txn.created.entrySet()) {
            synchronized (entryCache) {
                entryCache.put(created.getKey(), EntryMeta.of(created.getValue()));
            }
        }
        sawIssued(call.processId, call.requestNumber);
    }

    // ---- log entries ------------------------------------------------------------------------------------------------

    /** The key of a log entry in the memory (and in a plan's created entries). */
    static long entryKey(int processId, long requestNumber) {
        return ((long) processId << 40) ^ requestNumber;
    }

    void cacheEntry(int processId, long requestNumber, LogEntry entry) {
        synchronized (entryCache) {
            entryCache.put(entryKey(processId, requestNumber), EntryMeta.of(entry));
        }
    }

    /** What is remembered of an entry, or null. */
    EntryMeta cachedEntry(int processId, long requestNumber) {
        synchronized (entryCache) {
            return entryCache.get(entryKey(processId, requestNumber));
        }
    }

    // ---- the dictionary ---------------------------------------------------------------------------------------------

    /** Whether this client knows the dictionary entry of a hashed name exists. */
    boolean inDictionary(String name) {
        return knownDictionary.contains(name);
    }

    void addedToDictionary(String name) {
        knownDictionary.add(name);
    }
}
