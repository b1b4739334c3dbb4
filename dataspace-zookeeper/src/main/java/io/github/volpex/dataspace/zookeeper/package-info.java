/**
 * The Volpex dataspace (Kanna et al., "Redundancy Tolerant Communication on Volatile Nodes", §II–III) with its state in
 * an Apache ZooKeeper ensemble: replicas on any machine talk to the ensemble directly, there is no Volpex server, and
 * the dataspace survives the loss of a minority of the ensemble's servers.
 *
 * <h2>Where to start</h2>
 * {@link io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace#connect(String, String, int)} connects a client to a
 * namespace (creating it if absent); every host that runs replicas connects with the same connect string and namespace
 * and opens its {@link io.github.volpex.dataspace.Replica}s as with the in-process dataspace. The rules, exceptions and
 * statistics are those of {@link io.github.volpex.dataspace.Dataspace#inProcess(int,
 * io.github.volpex.dataspace.DataspaceOptions)}, checked by the same contract
 * ({@code io.github.volpex.testkit.DataspaceContract}). {@link io.github.volpex.dataspace.zookeeper.EmbeddedZooKeeper}
 * starts an ensemble of 1 to 7 servers in process for tests and examples; {@link
 * io.github.volpex.dataspace.zookeeper.BlobStore} is where large values go. {@link
 * io.github.volpex.dataspace.zookeeper.ZooKeeperEpochSource} gives a checkpoint store fenced writer epochs from the
 * same ensemble, so that one writer per job holds across machines, and {@link
 * io.github.volpex.dataspace.zookeeper.WriterElection} elects that writer among a process's live replicas and hands
 * it the epoch of the same counter (both need {@code volpex-checkpoint-core}, an optional dependency of this module).
 * {@link io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace.Builder#destroy()} destroys a namespace knowing none
 * of its settings, and {@link io.github.volpex.dataspace.zookeeper.ZooKeeperEpochSource#deleteJob} a job's counter.
 *
 * <h2>Internals</h2>
 * The dataspace a client connects to ({@code ZkDataspace}) is a facade over package-private parts that share a
 * {@code ZkContext} (the session, the settings, the {@code Layout} of paths, whether it is closed, and the ZooKeeper
 * calls every part makes): {@code NamespaceLifecycle} creates or checks the namespace on connect, collects its garbage
 * and destroys it; {@code NamespaceKeys} names what carries the namespace id (tag guards, blob keys) and
 * {@code TransactionBudget} what one transaction may hold and the options whose worst case fits it;
 * {@code RequestLoop} runs each request (read, or take what {@code ClientMemory} remembers; decide; commit; read again
 * on a conflict) and {@code Canceller} cancels a pending one, both committing through {@code GroupCommit}, which sends
 * concurrent requests' transactions as one {@code multi}; {@code Planner} turns a state read into the one versioned
 * transaction that commits it, reading nothing itself (what it needs beyond the state comes through its {@code Reads});
 * {@code ClientMemory} is what a client remembers of processes, tags and log entries, bounded; {@code Waiting} parks
 * blocked callers and polls submitted requests, woken through the {@code WaitRegistry}; {@code BlobPins} stores, pins
 * and reads the values kept in the blob store; {@code RequestCounters} counts for the statistics, on the SPI's
 * {@link io.github.volpex.dataspace.spi.RequestStatistics}. A replica handle ({@code ZkReplica}) is the SPI's
 * {@link io.github.volpex.dataspace.spi.AbstractReplica} over the request loop and the canceller. The planner, the
 * memory, the budget and the registry are tested alone, on hand-built records; the rest through an embedded ensemble.
 * {@code WriterElection} is likewise a facade over {@code Candidacy} (its session, its candidacy and the passes that
 * register it, watch the member ahead and take the epoch) and {@code RoleState} (the role readers see and the
 * listener's notices), on {@code EpochCounters}, which it shares with {@code ZooKeeperEpochSource}.
 *
 * <h2>Znode layout</h2>
 * <pre>
 * &lt;ns&gt;
 *     header: magic, format, process count, options, blob-store kind, namespace id, destroying
 * &lt;ns&gt;/p/&lt;pid&gt;
 *     process record: high-water mark, read-log window (oldest, bytes), the pending request (kind, tag name, issuing
 *     call's token), request numbers of retained entries holding blobs
 * &lt;ns&gt;/p/&lt;pid&gt;/&lt;r&gt;
 *     read-log entry of request r (immutable): kind, tag name, stored flag, value or "cancelled", issuing token, issue
 *     zxid
 * &lt;ns&gt;/t/&lt;hhh&gt;/&lt;name&gt;
 *     tag record: the current value (or none) and the FIFO queue of waiting (pid, r, READ|GET); deleted when both are
 *     empty. hhh: the first three hex digits of the SHA-256 of the name's characters (4,096 buckets)
 * &lt;ns&gt;/b/&lt;hh&gt;/&lt;sha256&gt;
 *     blob reference: how many tag records and log entries refer to the blob. hh: the first two hex digits of the
 *     SHA-256 (256 buckets)
 * &lt;ns&gt;/b/&lt;hh&gt;/&lt;sha256&gt;/&lt;token&gt;
 *     pin: an ephemeral child held by a put between storing its blob and committing
 * &lt;ns&gt;/n/&lt;hhh&gt;/&lt;name&gt;
 *     dictionary: the tag of a hashed name (buckets as for tag records)
 * &lt;ns&gt;/s/&lt;hh&gt;/&lt;key&gt;/&lt;i&gt;
 *     the default blob store's chunks (buckets as for blob references)
 * &lt;ns&gt;/g/&lt;id&gt;-&lt;k&gt;
 *     tag guard k (two hex digits, 64 of them; id: the namespace id in hex), no data: its version counts the deletions
 *     of tag records whose name's {@code hashCode} is k modulo 64
 * &lt;path&gt;/&lt;job name&gt;
 *     {@link io.github.volpex.dataspace.zookeeper.ZooKeeperEpochSource}'s epoch counter of a job, under a path of its
 *     own (magic "VPZE", format, {@code long} epoch, the 16-byte token of the acquisition that set it)
 * &lt;path&gt;/&lt;job name&gt;/c-&lt;token&gt;-&lt;seq&gt;
 *     a member of the job's {@link io.github.volpex.dataspace.zookeeper.WriterElection}: ephemeral and sequential, its
 *     data the member's name; the lowest sequence writes
 * &lt;parent&gt;
 *     a parent the package created above a namespace or an epoch path: data "VPZP" and format 1, deleted by clean-up
 *     once it has no child (one without it is never deleted)
 * </pre>
 * A process record is created by the process's first request; until then the process is at request 0. A tag's name is
 * its escaped form ({@code [A-Za-z0-9_-]} kept, any other UTF-16 unit as {@code %} and four hex digits), or
 * {@code ~} and the SHA-256 of the tag when that would exceed 200 characters: any Java string is a tag, including
 * {@code /}, non-ASCII text and lone surrogates. The buckets ({@code hhh}, {@code hh}) keep every znode's children few
 * enough for one ZooKeeper answer (below: how large a namespace can grow); a bucket is created by the first request
 * that finds it missing — the read before a commit that creates a tag record reads the bucket too, and a commit on a
 * remembered state that fails with {@code NONODE} on the record's create creates the bucket and commits again — and
 * stays until the namespace is destroyed. Every record is binary, big-endian, and starts with
 * a format byte (1; the header's is 3, which names this layout: a namespace of another format is refused with {@link
 * io.github.volpex.dataspace.zookeeper.NamespaceFormatException}, never read or converted):
 * <ul>
 *   <li>header: {@code int} magic {@code 0x56505A44} ("VPZD"), format (3), {@code int} process count, {@code int}
 *       read-log capacity, {@code long} read-log budget (−1: none), {@code int} max tag length, {@code int} max data
 *       bytes, {@code boolean} blobs in ZooKeeper, {@code long} namespace id, {@code boolean} destroying;</li>
 *   <li>process record: format, {@code long} high-water mark, {@code long} oldest retained, {@code long} log data
 *       bytes (kept for a byte budget only, 0 without one), {@code byte} pending kind (0: none, else 1 +
 *       {@link io.github.volpex.dataspace.Operation} ordinal) and,
 *       if pending, the name ({@code short} length, ASCII) and the 16-byte token, then {@code int} n and n
 *       {@code long} request numbers of entries holding blobs;</li>
 *   <li>log entry: format, {@code byte} kind, {@code byte} flags (1: stored, 2: has a value, 4: cancelled — a read
 *       or get cancelled while it waited, alone: no value, not stored), name, 16-byte token, {@code long} issue zxid
 *       (0: the entry's creation zxid), then the value if any. Other flag bits, or "cancelled" with another flag or
 *       on a kind that never waits, make the entry corrupt;</li>
 *   <li>value: {@code byte} 1 (inline), {@code int} length, the bytes; or {@code byte} 2 (blob), {@code int} length,
 *       32-byte SHA-256, {@code long} incarnation;</li>
 *   <li>tag record: format, {@code boolean} has a value, the value if any, {@code int} n and n waiters
 *       ({@code int} pid, {@code long} request number, {@code byte} kind).</li>
 * </ul>
 *
 * <h2>One request, one transaction</h2>
 * A call of (process p, request r) first reads, in one read-only {@code multi}, p's record, the entry
 * {@code p/r} and — when r may lead, that is when this client has not seen p at r or beyond — the tag's guard, then the
 * tag record and its bucket (or it commits on what it remembers without reading: below). Then:
 * <ul>
 *   <li><b>The entry exists:</b> the request was executed; it is answered from the entry (single put, identical
 *       get), after checking that the kind and tag match (else {@link
 *       io.github.volpex.dataspace.ReplicaDivergenceException}). This is a trailing replica's whole cost: one
 *       read.</li>
 *   <li><b>r is p's pending request:</b> the call joins it and waits (below).</li>
 *   <li><b>r is below the oldest retained entry:</b> a put is a duplicate and is ignored; anything else gets {@link
 *       io.github.volpex.dataspace.ReadLogEvictedException}, never a re-execution.</li>
 *   <li><b>r is p's next request:</b> the call leads and commits one {@code multi} that is the request's whole
 *       effect, every write conditional on the version read:
 *     <ul>
 *       <li>p's record: created, or {@code setData} at its version, moving the high-water mark to r (or to r pending);
 *           plus {@code create p/r} with the outcome and a {@code delete} of each entry the log evicts (the oldest
 *           when full, then the oldest while the byte budget is exceeded — never the newest);</li>
 *       <li>put and single-assignment put of an absent tag: the tag's waiters are served in arrival order — every read
 *           before the first get, then that get, which takes the value — each by a {@code setData} of the waiter's
 *           record at its version (clearing its pending request) and a {@code create} of its entry; the tag record is
 *           created, set at its version, or deleted; a single-assignment put of a present tag {@code check}s the tag
 *           record's version;</li>
 *       <li>read and try-read of a present tag: {@code check} of the tag record's version (the value is current at
 *           the commit); get and try-get: {@code delete} of the tag record at its version;</li>
 *       <li>try-operations on an absent tag: the absence is asserted in the transaction, by {@code check} of a tag
 *           record that holds only waiters, or by {@code create} then {@code delete} of the tag's node;</li>
 *       <li>read and get of an absent tag: the request becomes pending — p's record names it and the tag record's
 *           queue gains (p, r, kind);</li>
 *       <li>blob references: {@code setData} of each changed count at its version, or its {@code delete} when it
 *           reaches zero and no put pins it (the blob is deleted from the store after the commit), and the
 *           {@code delete} of the put's own pin;</li>
 *       <li>the tag's guard, whenever the transaction writes or checks the tag record at a version: a
 *           {@code setData} at the guard's version read if it deletes the record, a {@code check} of it otherwise.
 *           ZooKeeper restarts a node's version at 0 when it is created again, so a version alone cannot tell a
 *           record from one deleted and created again since; the guard's version, read before the record, can. A
 *           transaction that only creates the tag record needs no version (the create fails on any record there)
 *           but still {@code check}s that the guard exists, at any version: the guard's name carries the namespace
 *           id, so a transaction planned for a namespace destroyed and created again since fails.</li>
 *     </ul>
 *     A conflict ({@code BADVERSION}, {@code NODEEXISTS}, {@code NONODE}, {@code NOTEMPTY}) means another request
 *     committed first: the call reads again and decides again.</li>
 * </ul>
 *
 * <h2>Leading without reading first</h2>
 * A client remembers what its reads and commits last showed of each process record and of up to 4,096 tag records
 * holding at most 4 MiB of inline values together, least recently used forgotten first (each with the version of the
 * tag's guard read no later than the record). A request r of p leads on that memory — one
 * round trip, the commit alone — when the remembered record of p has r − 1 complete and nothing pending, and the
 * tag's state is remembered: the plan and its transaction are exactly those a read would give, every write
 * conditional on the remembered versions. The commit can apply only if the state is still current: p's record is
 * never deleted, so its version proves p has not moved (no entry {@code p/r} exists then); the tag record's version
 * and its guard's prove the record unchanged; an absent record is created, which fails if one is there. If anything
 * moved — another replica of p on another client, another process on the tag — the commit fails on a version, the
 * client forgets those states, and the request reads and decides as above. A lost reply is settled as always, by
 * reading. A replica that leads alone, as most do, thus costs one {@code multi} per request.
 *
 * <h2>Many requests, one multi: group commit</h2>
 * The transactions of concurrent requests of one client — replicas of many processes, submitted requests, cancels —
 * go to the ensemble together ({@code GroupCommit}), as a database's group commit does and as Apache Pulsar's
 * metadata store batches its ZooKeeper operations, but with no thread or timer of the library's: a request whose
 * client has no batch in flight sends its transaction at once (alone, it waits one {@code multi}, as before);
 * requests that come while a batch is in flight queue, and when it completes, its sender hands the queue to the
 * request at its head, which sends the next batch: every queued transaction that fits (at most 1,000 operations and
 * 128 KiB as {@code TransactionBudget} counts them, never more than one transaction's budget). The ensemble's commit
 * pipeline then orders a few large transactions instead of many small ones.
 * <p>A batch is its members' operations one after another in one {@code multi}, which ZooKeeper applies in order, all
 * or none. A batch never holds two transactions that touch the same znode, or one that creates or deletes under a
 * znode another touches: the later waits for the next batch. So no operation of a batch sees a batch-mate's write,
 * and a batch that commits is its members' transactions committed one after another with nothing in between, each
 * exactly as it would have committed alone; each request's one transaction stays atomic, its commit point inside
 * its call. When a batch fails, ZooKeeper names its first failing operation: that member gets the failure with the
 * results of its own operations (as its own {@code multi} would have: a conflict, read again and decide again), and
 * the others are sent again without it — one request's conflict never fails its batch-mates. A lost connection, an
 * expired session or a timeout leaves every member's outcome unknown, and each settles its own by reading, as a
 * request alone always does: its log entry carries its call's token (below: exactly once). A queued request that is
 * interrupted leaves the queue, unsent, and settles as after a lost connection.
 *
 * <h2>Cancelling is one more transaction</h2>
 * {@link io.github.volpex.dataspace.DataspaceServer#cancel(int, long)} of (p, r) reads p's record and the entry
 * {@code p/r} in one read-only {@code multi}. An entry means the request is complete: its logged outcome is the answer
 * (a cancel that comes too late returns the data, so nothing taken is lost; a second cancel finds "cancelled"). If r
 * is p's pending request, the cancel reads the tag record and commits one {@code multi}, every write at the version
 * read: the tag record without (p, r, kind) in its queue ({@code setData}, or {@code delete} when nothing is left),
 * p's record with no pending request and its log window moved, the entry {@code p/r} with the flag "cancelled" (and
 * the issuing call's token and issue zxid, as a put serving the request would write), the evictions that entry causes
 * and their blob references. A put that serves the request and its cancel write the same two records, so exactly one
 * of them commits; the other fails on a version, reads again and finds the entry. After a lost reply the cancel
 * reads again too, and finds the entry or the request still waiting. The entry wakes every waiting call like any
 * outcome, and every call of (p, r) — on any client, after any restart — reads "cancelled" from the log and throws
 * {@link io.github.volpex.dataspace.DataspaceCancelledException}; the process's next request is r + 1, as after any
 * completed request. A restart whose saved number r is p's pending request ({@link
 * io.github.volpex.dataspace.Dataspace#open(int, long)}) opens the handle at r − 1, from the same read of p's record.
 * The commit order of these transactions — ZooKeeper's zxid order, one leader's — is the dataspace's global serial
 * order (the paper's atomicity rule); the transactions are linearizable, since ZooKeeper serializes every write through
 * the leader and each transaction checks the versions of everything its outcome depends on.
 *
 * <h2>Reads that depend on other clients' writes</h2>
 * ZooKeeper orders every write through its leader, but a server answers reads from its own copy, which may lag behind
 * other servers' (a follower applies a commit a little after the leader, and the leader a little after a follower
 * that was quicker); a client sees its own writes in order, not necessarily other clients'. A request's outcome is
 * decided by its versioned transaction, so a stale read only costs it a retry. Where the dataspace decides from a read
 * alone, that read is linearizable: a {@code check} of the namespace's znode — a transaction the ensemble's quorum
 * commits — then the reads on the same session, which its server answers only after applying that check, so they see
 * every write committed before the call began. ZooKeeper's {@code sync} would not be enough: it is not a quorum
 * operation, and a leader that has lost its quorum without noticing yet still answers it. Linearizable are:
 * <ul>
 *   <li>{@link io.github.volpex.dataspace.Dataspace#open(int, long)}: a restart right after another client completed
 *       request {@code savedRequestNumber} sees it completed (a lagging read would refuse the checkpoint, or show a
 *       completed get still pending, open the handle one request early and hand the process the consumed tuple
 *       again);</li>
 *   <li>{@link io.github.volpex.dataspace.DataspaceServer#highWaterMark(int)}, {@link
 *       io.github.volpex.dataspace.DataspaceServer#oldestRetained(int)} and {@link
 *       io.github.volpex.dataspace.DataspaceServer#pendingRequest(int)}: each answers as the process is at some
 *       instant during the call;</li>
 *   <li>a request or a cancel that would fail because its number lies beyond the process's high-water mark, or
 *       because its process still has a request pending, reads again linearizably before it fails;</li>
 *   <li>a put's check that its blob pin still holds (below), and garbage collection's check that a blob's reference
 *       node is gone before it deletes the blob.</li>
 * </ul>
 * Each costs one quorum transaction, spent only where such a decision is taken. From its second conflict in a row, a
 * request also brings its server up to date ({@code sync}) before reading again, so that a lagging server does not
 * make it conflict over and over.
 *
 * <h2>Waiting and waking</h2>
 * A pending request has its place in the tag record's FIFO queue, and the put that serves it (or the cancel that ends
 * it) writes its outcome into the process's read log. A waiting call — the one that made it pending, or any replica or
 * retry that joined it — sets an {@code exists} watch on its own entry {@code p/r} and parks; the entry's creation
 * fires the watch and wakes it (a put wakes exactly the calls it served). A connection event wakes every waiting call
 * to read again and set its watch anew (watches do not survive an expired session). A timeout, an interrupt or closing
 * the replica ends the wait but not the request: it stays pending, and the retry or another replica receives its
 * result. Waiting holds no thread but the caller's and no server resource but one watch.
 *
 * <p>A served waiter's outcome is never visible before the put that decided it, nor the put without it: the put's
 * one transaction writes the waiter's log entry, the waiter's process record and the tag record's new state together
 * (a cancel likewise writes the entry "cancelled" with the tag record's shorter queue), so every server applies all of
 * them at one zxid or none. A client that returns the outcome read it from that entry; another process that looks at
 * the tag meanwhile — a {@code tryRead} through a server that has not applied the put yet — commits a {@code check} of
 * the version (or absence) it read, which fails, and reads again. So a waiting read or get takes effect at the zxid of
 * the transaction that served it, between the call's invocation and its response, and each tag's history is
 * linearizable. The testkit's {@code LinearizabilityChecker} judges this on histories of random replicated programs
 * with a ZooKeeper session per replica, some sessions bound to one server, through leader failovers and expired
 * sessions.
 *
 * <p>A request {@linkplain io.github.volpex.dataspace.DataspaceServer#submit(io.github.volpex.dataspace.Request)
 * submitted} runs the same loop, on the submitting thread, up to the point where a blocking call would park: there it
 * registers for its entry's path, sets the same watch and returns its future, and no thread waits for it. Each watch
 * event or connection event then runs one more pass of the loop as a task on the
 * {@linkplain io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace.Builder#executor(java.util.concurrent.Executor)
 * executor} (events that come during a pass make one more pass; passes of one request never overlap), which completes
 * the future or sets the watch again. Cancelling the future only deregisters it: the request stays pending in the
 * ensemble. Closing the dataspace fails every waiting future with
 * {@link io.github.volpex.dataspace.DataspaceClosedException}.
 *
 * <h2>Exactly once over an at-least-once network</h2>
 * The idempotency key is (process, request number): every transaction that executes request r of process p moves p's
 * record from r − 1 to r at the version it read, so at most one transaction executes it, whoever sends it and however
 * often. Each call carries a 16-byte token (the client's random id and a call counter) that the entry, or the pending
 * record, keeps.
 * <ul>
 *   <li><b>Connection loss, lost replies, retries.</b> An interrupt that arrives during a ZooKeeper call makes its
 *       outcome unknown, like a connection loss (the interrupt status is kept for the caller). When a commit's outcome
 *       is unknown ({@code CONNECTIONLOSS},
 *       {@code SESSIONEXPIRED}, a timeout), the call waits for the connection and reads again: the entry or pending
 *       record it finds tells whether the commit applied and, by its token, whether it was this call's — then the
 *       reply is not a duplicate, exactly as if the reply had arrived. If nothing applied, the call decides again. A
 *       read from a server that lags only makes the call see an older state; its commit then fails on a version and
 *       it reads again.</li>
 *   <li><b>Session expiry.</b> No dataspace state depends on a session: records, entries, queues and blobs are
 *       persistent. The client opens a new session and carries on; waiting calls set their watches again. Only a
 *       put's pin is ephemeral, and it may vanish while the put stores its blob; a client collecting garbage may then
 *       delete the unpinned reference node and blob. A put's commit deletes its pin, so it fails if the pin is gone,
 *       and every later turn of the put's loop checks the pin (a linearizable read of the reference node and the
 *       pin): a pin that vanished is taken again, and when the reference node is gone too, the put deletes the blob
 *       it stored under the dead incarnation and pins and stores its value anew.</li>
 *   <li><b>Leader failover.</b> ZooKeeper commits a transaction on a quorum or not at all, and the new leader's
 *       history contains every committed one, so a failover is a connection loss with an unknown outcome, handled as
 *       above.</li>
 *   <li><b>A client that dies</b> mid-request leaves either nothing or the whole transaction; a replica that restarts
 *       resumes at its saved request number and is answered from the log.</li>
 * </ul>
 *
 * <h2>Values of any size</h2>
 * A value up to the inline limit (16 KiB by default) is stored in the records themselves. A larger one — or one that
 * would make a transaction exceed ZooKeeper's request limit ({@code jute.maxbuffer}, about 1 MiB), as when a put
 * serves many waiting reads — goes to the {@link io.github.volpex.dataspace.zookeeper.BlobStore}, once, under
 * {@code <namespace id>-<sha256>-<incarnation>}, and records refer to it by SHA-256, length and incarnation (the
 * creation zxid of its reference node, so that a blob deleted and stored again never reuses a key). The put stores the
 * blob before its commit, pinned by an ephemeral child of the reference node so that no one deletes it meanwhile: a
 * put that fails or loses the race leaves nothing visible, and a crashed put leaves a blob that no record refers to,
 * which {@link io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace#collectGarbage()} (also run on connect)
 * removes. Garbage collection goes bucket by bucket: it deletes each reference node whose count is 0 and that no put
 * pins (at the version read, so a put that pins it meanwhile makes the delete fail), then its blob; then it lists the
 * store (the default store bucket by bucket, another through {@link
 * io.github.volpex.dataspace.zookeeper.BlobStore#keys()}) and deletes each blob of this namespace whose incarnation's
 * reference node a linearizable read shows gone. Its reads are pipelined and its time grows with the number of blobs;
 * a collection cut short is simply run again. Every blob read is verified against its SHA-256 and length ({@link
 * io.github.volpex.dataspace.zookeeper.BlobStoreException} otherwise). Reference counts change in the transactions
 * that add or drop references, so a blob is deleted exactly when the last tuple or read-log entry that refers to it
 * goes.
 *
 * <h2>How large a namespace can grow, and destroying it</h2>
 * Requests never list a znode's children; garbage collection and {@code destroy()} do. A ZooKeeper client refuses an
 * answer as large as its {@code jute.maxbuffer} (1 MiB − 1 by default) and drops its connection instead, so a znode
 * with too many children can be listed by no client with that setting (Curator's tech note 4 warns of it). The
 * buckets keep every listing well below: at the default {@code jute.maxbuffer}, a tag bucket lists 5,139 names of the
 * longest escaped form (200 characters) and 15,196 hashed ones, so a namespace holds about 2·10⁷ tags of the longest
 * names (4,096 buckets, less the spread of a uniform hash) before its fullest bucket would no longer list; a reference
 * bucket lists 15,419 and a store bucket 10,082 blobs (256 buckets each: about 3.9·10⁶ and 2.6·10⁶ blobs). A process's
 * read log (at most 65,536 entries) lists while its request numbers stay below 10¹¹, and is never listed whole anyway
 * (below); a reference has a pin per put of that value in flight; a blob has at most 4,096 chunks. Every listing goes
 * through one bounded call: when an answer cannot fit — a znode that outgrew these bounds, or children the dataspace
 * did not create — the operation fails with {@link io.github.volpex.dataspace.zookeeper.ListingTooLargeException},
 * naming the znode and the {@code jute.maxbuffer} that lists it, instead of retrying forever.
 *
 * <p>The limit that comes first is memory: ZooKeeper keeps every znode in the memory of every server, each costing its
 * path, its data and about a hundred bytes of bookkeeping, and a server restarts by reading all of it. A tag record
 * is its value (inline up to the inline limit) and a few dozen bytes; a blob in the default store costs three znodes
 * and its bytes; each retained read-log entry holds its value inline or a blob reference. Measured with values of a
 * few bytes: 10⁵ tags and 2·10⁴ blobs are 1.7·10⁵ znodes and 13 MB of paths and data (ZooKeeper's approximate data
 * size), 10⁶ tags and 10⁵ blobs 1.3·10⁶ znodes and 92 MB, with the largest listing answer 40 KB. Size the servers'
 * heaps (and {@code initLimit}, {@code syncLimit}, for a follower catching up) for the namespace you expect, and give
 * large values a blob store of their own.
 *
 * <p>{@link io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace#destroy()} marks the header "destroying",
 * deletes the tag guards (from then on every other client's commit fails), deletes each process's read log by the
 * request numbers its record names, then everything else bucket by bucket: each znode is deleted without looking, and
 * only one that still has children is listed and emptied first; deletes are pipelined a thousand at a time. Its time
 * grows with the number of znodes, and no step lists more than one znode's children. A destroy cut short — a crash, an
 * ensemble out of reach, a listing too large — leaves the header marked, and the next client that connects finishes
 * it.
 *
 * <h2>Why the plain ZooKeeper client, not Curator</h2>
 * Curator's value is its retry policies, its connection-state handling and its recipes. The recipes do not fit (a
 * ZooKeeper queue recipe is what Curator's own tech note 4 warns against; the dataspace's queues live inside bounded
 * tag records), and retrying is not enough for exactly-once: after a lost reply the outcome must be read back and
 * told apart by token, which this package does around every transaction itself. What is left — reconnecting after an
 * expired session — is a few lines ({@code Session}). Curator would add two jars, Guava and a second version of
 * ZooKeeper to converge, for none of it.
 *
 * <p>The writer election is the one place where a Curator recipe ({@code LeaderLatch}) almost fits, and it is still
 * built here on the plain client, for three reasons. The fencing epoch must be taken in the same transaction that
 * checks the candidacy (so that an epoch is only ever taken by a member the ensemble still counts as elected), which a
 * latch's callbacks cannot do atomically; the latch's trackers record a decade of double leaders after reconnections
 * and expired sessions (CURATOR-696, -620, -498, -460) whose fixes — a candidacy counts only in the session that made
 * it, a token in every candidate's name, a suspended connection is no leadership — are a few lines each here
 * ({@link io.github.volpex.dataspace.zookeeper.WriterElection} lists them); and Curator runs its connection-state
 * listeners on threads of its own, which the library must not own. The election runs its steps on ZooKeeper's event
 * thread, each one synchronous call that never waits for a connection.
 *
 * <h2>Limits, and where this departs from the in-process dataspace</h2>
 * <ul>
 *   <li>{@link io.github.volpex.dataspace.Dataspace#statistics()} counts the requests this client handled; each
 *       client has its own.</li>
 *   <li>The read-log capacity is at most 65,536 (each retained outcome is a znode), and a process retains at most
 *       4,096 outcomes that hold blobs (their numbers live in its record); beyond that the oldest are evicted, as
 *       the byte budget would.</li>
 *   <li>The process count must let a put that serves a waiting read of every process fit one transaction (about
 *       1,800 processes for a short namespace and the default {@code jute.maxbuffer}); connecting with more is
 *       refused, naming the bound.</li>
 *   <li>A timeout bounds the wait for data; reaching the ensemble is bounded separately
 *       ({@link io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace.Builder#connectionLossTimeout}), after which
 *       a call throws {@link io.github.volpex.dataspace.zookeeper.ZooKeeperUnavailableException}: retrying it is
 *       safe.</li>
 *   <li>A waiting call whose outcome is evicted before it reads it (its process's other replicas ran more than the
 *       log's capacity ahead in the meantime) gets {@link io.github.volpex.dataspace.ReadLogEvictedException}.</li>
 *   <li>{@code submit} reads and commits on the submitting thread, as {@code handle} does (a few round trips, up to
 *       the connection-loss timeout while the ensemble is unreachable); only the wait for data holds no thread. Its
 *       future also fails with {@link io.github.volpex.dataspace.zookeeper.ZooKeeperUnavailableException} and
 *       {@link io.github.volpex.dataspace.zookeeper.BlobStoreException}, which {@code handle} throws.</li>
 *   <li>ZooKeeper holds its whole database in memory: inline values are copied into each read log that receives
 *       them, so a job exchanging large values should set a byte budget, a lower inline limit, or a shared blob
 *       store.</li>
 *   <li>Znodes are created with the open ACL; secure the ensemble with its own authentication.</li>
 *   <li>ZooKeeper's jars have no module names and split packages, so this module runs on the class path only; its
 *       jar names itself {@code io.github.volpex.dataspace.zookeeper} in its manifest.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Everything is thread-safe. A dataspace owns one ZooKeeper client (with ZooKeeper's two threads); blocked callers
 * park in their own threads (virtual threads do not pin), are interruptible, and wake with {@link
 * io.github.volpex.dataspace.DataspaceClosedException} when their replica or the dataspace is closed. Submitted
 * requests that wait hold no thread; their futures complete on the executor given to the builder (by default the
 * common fork-join pool), or on the submitting or closing thread.
 *
 * @since 0.1
 */
package io.github.volpex.dataspace.zookeeper;
