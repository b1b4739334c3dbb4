/**
 * A checkpoint store that never loses the last committed checkpoint while enough of its volatile repositories
 * survive.
 *
 * <p>Start from {@link io.github.volpex.checkpoint.store.CheckpointStore#perennial} (an
 * {@link io.github.volpex.erasure.IdaCodec}: any {@code m} of {@code n} fragments rebuild a checkpoint) or
 * {@link io.github.volpex.checkpoint.store.CheckpointStore#ephemeral} (two full replicas) with a list of
 * {@link io.github.volpex.checkpoint.repository.FragmentRepository} instances
 * ({@link io.github.volpex.checkpoint.repository.FragmentRepository#inMemory},
 * {@link io.github.volpex.checkpoint.repository.FragmentRepository#directory}, or an implementation of your own over
 * the network; {@link io.github.volpex.checkpoint.repository} says what one must offer), then {@code commit},
 * {@code recover} and {@code repair}.
 *
 * <h2>What it implements</h2>
 * <ul>
 *   <li>Ren, Eigenmann and Bagchi, "Failure-Aware Checkpointing in Fine-Grained Cycle Sharing Systems" (HPDC 2007):
 *       §6.2 a checkpoint is encoded into {@code m + k} fragments stored on distinct hosts, transferred in parallel;
 *       §6.3 "each checkpoint fragment remains valid until the next checkpoint has been completed": only after all
 *       fragments of the new checkpoint are stored are the old ones discarded; §4 the hosts may be chosen by
 *       {@link io.github.volpex.checkpoint.store.PlacementPolicy#selecting} over
 *       {@link io.github.volpex.checkpoint.placement}.</li>
 *   <li>de Camargo, Castor and Kon, "Reliable management of checkpointing and application data in opportunistic
 *       grids" (JBCS 2010): §4.2 the file fragment index (FFI) with each fragment's location and secure hash, kept in
 *       several copies; ephemeral mode (two full replicas) and perennial mode (IDA); §4.3 leases and the fragment
 *       reconstruction protocol with its threshold at the midpoint of {@code m} and {@code n}.</li>
 * </ul>
 *
 * <h2>Internals</h2>
 * {@code CheckpointStore} is a facade over package-private parts that share a {@code StoreContext}: {@code JobView}
 * (one listing of a job: which checkpoints exist, their order, which are committed), {@code Committer},
 * {@code Restorer}, {@code Repairer}, {@code Collector} (leases and garbage), {@code JobDeletion} (deleting a whole
 * job), {@code Reads} (fetching and verifying fragments) and {@code Regenerator} (rebuilding fragments onto other
 * repositories).
 *
 * <h2>For replicated processes</h2>
 * A process replicated over hosts that fail restarts from two things that must agree: its application state and the
 * dataspace request number its replicas reopen at. {@link io.github.volpex.checkpoint.store.ProcessCheckpoint} holds
 * both in one versioned checkpoint ({@code CheckpointStore.commit(job, ProcessCheckpoint)}, in the background
 * {@code commitAsync(job, ProcessCheckpoint)},
 * {@code recoverProcess(job)}). Its replicas elect the one that writes (a coordination service's election, such as
 * the ZooKeeper adapter's); such an {@link io.github.volpex.checkpoint.store.EpochSource} hands the elected writer one
 * epoch per term ({@link io.github.volpex.checkpoint.store.EpochSource#epochPerTerm()}), which the store asks for
 * before every commit, so one store serves a host through the terms it is elected for. A finished job is deleted in
 * one call ({@code deleteJob}): the epoch source's counter first — refused while writers of the job live, unless
 * forced — then every object of every epoch, markers first, checked by a last listing.
 *
 * <h2>Where it departs from the papers, and why</h2>
 * <ul>
 *   <li><b>Where the index lives.</b> de Camargo keeps the FFI on the responsible cluster manager and its two
 *       neighbours; Ren's computation host keeps track itself. Here a copy of the index is written next to every
 *       fragment, and a commit needs {@code k + 1} of them: any {@code m} repositories holding fragments then hold an
 *       index too, and repair restores lost or damaged copies (below), so the index is never the weaker link, and no
 *       extra service is needed. The index is also returned to the caller.</li>
 *   <li><b>The commit point.</b> Fragments first, verified by listing; then index copies, verified by listing (at
 *       least {@code k + 1}); then commit markers, empty objects whose key names the checkpoint. The first marker
 *       stored is the commit point: before it the checkpoint never counts, after it it always does, and a reader
 *       learns which from a listing alone. A failed commit that left a complete-looking checkpoint (all fragments,
 *       some index copies) therefore cannot be mistaken for a committed one — the papers' protocol, where the index
 *       itself marks completion, let collection delete the previous checkpoint in favour of such a leftover. The
 *       commit returns once {@code k + 1} holders list a marker, so that any {@code m} holders show one.</li>
 *   <li><b>Order.</b> Checkpoints are ordered by the epoch of their writer ({@link
 *       io.github.volpex.checkpoint.store.EpochSource}), then by sequence number, not by sequence number alone: a
 *       writer restarted while the newest checkpoints are unreachable would otherwise number its own from zero and
 *       see them lose to the older, higher-numbered ones when the repositories come back. {@code CheckpointId}
 *       defines the order in one place for the commit, recovery, repair and collection.</li>
 *   <li><b>Epochs without clocks.</b> The papers do not order writers; a wall-clock epoch orders them only as well as
 *       the hosts' clocks agree, and NTP steps clocks while volunteer PCs keep bad time: a writer whose clock runs 3 s
 *       fast orders its checkpoints after those of a writer that follows it a second later. The default epoch is one
 *       more than the greatest epoch of any object
 *       of the job that the writer lists, taken only from a listing that every repository answered
 *       ({@link io.github.volpex.checkpoint.store.EpochSource#listing()}): every checkpoint that can still be
 *       recovered has objects carrying its epoch on some repository, so a later writer that lists all of them orders
 *       its checkpoints after every one of them. Taking one more than the greatest epoch on a majority, with commits
 *       that return only once their markers are on a majority (the quorum intersection of Paxos and of ABD registers),
 *       would tolerate a minority of unreachable repositories, but only while the repository shared by the two
 *       majorities keeps what it stored: volatile hosts lose their disks, and losing the markers on one host of a bare
 *       majority would order a returned commit below an earlier one. The cost of a complete listing is availability
 *       at a writer's first commit of a job ({@link io.github.volpex.checkpoint.store.EpochUnavailableException});
 *       a coordination service's fenced counter (the ZooKeeper dataspace module's epoch source) needs neither.</li>
 *   <li><b>Recovery says what it does not know.</b> It returns the newest committed checkpoint, never an older one
 *       by itself, and never "no checkpoint" while a repository is unreachable
 *       ({@link io.github.volpex.checkpoint.store.RepositoriesUnreachableException}).</li>
 *   <li><b>Collection.</b> Older checkpoints are deleted only below one whose commit is durable ({@code k + 1}
 *       markers) and whose fragments were verified (at its commit, or read back by collection). Deleting a checkpoint
 *       removes its commit markers first, and its index copies and fragments only once every marker delete returned
 *       and a listing shows none of them left; a commit that gives up while one of its markers may remain leaves its
 *       checkpoint whole. So a checkpoint never counts without what it needs, even when deletes fail — on the
 *       repositories the deleting operation listed: one that did not answer that listing (away, or its listing
 *       failed) keeps what it holds of the checkpoint, its marker included, so an older checkpoint may then count,
 *       and be listed by {@code checkpoints}, with fewer than {@code m} of its fragments left. Unless a collection
 *       found the job's newest checkpoint expired (its lease over: it then deletes that checkpoint and every older
 *       one), it is never the newest (only what is older than a durable, verified checkpoint is deleted), so
 *       recovery, repair and the next commit's base never use it. It is deleted by the next operation that deletes
 *       older checkpoints with that repository in its listing: the end of a commit that returned, or a collection
 *       once it has found the newest checkpoint expired, or durable with its fragments verified. A commit that
 *       gives up after publishing its fragments asks each repository to delete only what it tried to store there:
 *       the fragments placed on it, first or as replacements, and its index copy and marker where those were
 *       tried.</li>
 *   <li><b>Integrity.</b> Every fragment is checked against the SHA-256 its index records and the rebuilt checkpoint
 *       against its own (the older segments a differential checkpoint lists are checked block by block instead:
 *       below), so a mixture of two checkpoints, a stale fragment or a corrupt one is never returned. The
 *       index carries a magic number, a version and a CRC-32C
 *       ({@link io.github.volpex.checkpoint.store.FragmentIndex} documents it byte by byte).</li>
 *   <li><b>Streaming.</b> Checkpoints are encoded segment by segment (1 MiB by default) so a commit from an
 *       {@link java.io.InputStream} holds one segment in memory; each piece is followed by a CRC-32C so that repair
 *       can read fragments in lockstep and detect a bad piece before using it.</li>
 *   <li><b>The codec's payloads, the store's framing.</b> The store gives the codec bare segments
 *       ({@code encodePayloads}, {@code decodePayloads}) and frames and hashes the payloads itself, so a fragment
 *       carries one digest, not two. The codec's {@code decodeMissing} works on its self-describing
 *       {@code Fragment}s; the store regenerates a lost fragment by decoding each segment from {@code m} payloads
 *       and coding it again, which yields the same bytes.</li>
 *   <li><b>Failed writes.</b> A fragment whose write fails during a commit is regenerated from the stored ones onto
 *       another repository (the repair path) instead of failing the commit; a regenerated fragment must hash to the
 *       digest of the original, which makes regeneration self-checking.</li>
 *   <li><b>Identities.</b> Keys carry the epoch, the sequence number and a random commit id, so two commits never
 *       overwrite each other, and a listing tells every checkpoint present and its order.</li>
 *   <li><b>Repair.</b> A corrupt copy is rewritten on its own repository when that repository takes the write; a
 *       lost one moves to a repository holding none (Ren's selection can choose it), and back where it was when no
 *       other is left. The index copies are repaired too, every time and not only when fragments move: de Camargo
 *       keeps the FFI on three managers, here it lives next to the fragments and suffers their faults, so a copy that
 *       is missing, corrupt or of an older revision is rewritten on every holder that answers, and read back.
 *       Without that, damage within {@code k} per repair cycle would reach every copy in a few cycles.</li>
 *   <li><b>Asynchronous commits.</b> A snapshot and a background persist, as CheckFreq (Mohan et al., FAST '21)
 *       splits a checkpoint: the caller pays for a copy of its bytes; the persist is the same protocol on the injected
 *       executor, and its stage completes at durability ({@code k + 1} markers listed), not at the first marker, so a
 *       completed stage means what a returned {@code commit} means. Per job at most one persist runs and one waits (a
 *       newer commit supersedes the waiting one), so the memory held is at most two snapshot arrays per job, counting
 *       the kept one: the array of the last snapshot whose persist ended is kept, softly referenced, for the job's next
 *       snapshot of the same length to copy into, as a new array of a large state would be allocated while the last
 *       persist's garbage fills the heap, and its caller would wait for the collection that follows. A job that
 *       checkpoints faster than its repositories take it loses intermediate checkpoints, never the order. Marking the
 *       other repositories and deleting the replaced checkpoint follow after the stage completes, and the job's next
 *       operation finishes them first if they have not run. A thread that waits for repository calls runs those the
 *       executor has not started, so persists on a small pool never deadlock on their own calls; closing waits a
 *       bounded time and then abandons, never hanging on a repository.</li>
 * </ul>
 *
 * <h2>Differential checkpoints</h2>
 * A store built with {@code CheckpointStore.Builder.differential(Chunking)} cuts the state into blocks — fixed-size
 * by default, as FTI's differential checkpoints hash 16 KiB blocks of arrays updated in place; content-defined
 * ({@link io.github.volpex.checkpoint.store.Chunking#contentDefined}) for serialized states, where an insertion
 * shifts every later byte: the FastCDC cut rule (Xia et al., USENIX ATC '16) over a gear rolling hash, with two
 * masks that normalise chunk sizes around the average, as restic and borg cut their archives — and names each block
 * by its SHA-256.
 * <ul>
 *   <li><b>Segments.</b> A commit stores only the blocks that the job's newest committed checkpoint (its
 *       <em>base</em>) does not already refer to, packed one after another into one <em>segment</em> followed by the
 *       checkpoint's <em>block manifest</em>. That segment is the checkpoint's payload: it goes through the same
 *       dispersal, fragment verification, index copies and commit markers as a full checkpoint, under the same keys.
 *       A segment is therefore named by the identity of the checkpoint that wrote it
 *       ({@code <job>.<epoch>.<sequence>.<commit id>}), and a block by its SHA-256 and the segment holding it.</li>
 *   <li><b>The manifest</b> (magic {@code VXDM}, its own version, CRC-32C; {@code Manifest} documents it byte by byte)
 *       lists the state's length and SHA-256, every other segment the state needs (its identity, its payload's length
 *       and SHA-256, the block bytes it holds) and every block of the state in order: which segment, the offset
 *       there, the length and the SHA-256.</li>
 *   <li><b>Recovery, and what it verifies where.</b> The checkpoint's own payload is rebuilt as a full checkpoint
 *       is — every fragment used checked against the SHA-256 its index records, the payload against the index's
 *       digest — so its manifest and the blocks stored with it are verified once. Each other segment the manifest
 *       lists is found by its identity, and its index must record the payload length and digest that the manifest
 *       records for it. Of such a segment, {@code m} fragments are fetched and checked for length only; only the
 *       stripes (the fragments' pieces of one {@code segmentBytes} stretch of its payload) that hold a block of the
 *       state are decoded, each piece first checked against its CRC-32C; and every block copied from it is checked
 *       against the SHA-256 the manifest records for it. A failed CRC or a block that does not match its digest
 *       makes recovery read that segment again as a full checkpoint, every fragment verified by its SHA-256, and
 *       check the blocks again; a block that still does not match fails the recovery
 *       ({@link io.github.volpex.checkpoint.store.CheckpointUnavailableException}, reason {@code CORRUPT}). So a
 *       block whose bytes are not those its SHA-256 names is never returned, and no byte is hashed twice: a state
 *       made of blocks that each match the digest the verified manifest records, in the manifest's order and
 *       lengths, is the state the manifest names, and the state's own digest is not computed again. The per-block
 *       check costs one SHA-256 pass over the bytes taken from older segments — less than the fragment digests it
 *       replaces, which would cover every stored byte of those segments, live or not — and it is what guarantees
 *       the bytes: a CRC-32C only detects accidental damage. Stripes holding no live block are neither decoded
 *       nor checked (their damage is repair's business, which checks every fragment in full). The segments are
 *       read at once on the store's executor, each task copying its blocks into their own ranges of the state; a
 *       segment is started ahead of the one awaited (and the next) only while fewer than {@code n} are running and
 *       the payloads started and not yet awaited fit in the state's length. So a recovery holds, besides the state,
 *       fetched fragments of about the state's length (two segments' when they are larger; up to twice that while
 *       damaged segments are read again whole, and more with {@code extraFetches}). The first segment in the
 *       manifest's order that cannot be read is the one a failed recovery reports; no later segment is started
 *       after a failure, and the recovery returns only once every segment task it started has ended. Recovering
 *       a differential checkpoint of 64 MiB that lists ten older segments takes 0.90× the time of recovering a
 *       full one in memory and 1.9× on nine S3 endpoints, where it fetches every listed segment whole — about
 *       twice the state's bytes at the default space bound (medians of paired runs, {@code benchmarks/README.md});
 *       in memory, decoding whole segments had taken 2.9×, and on S3, reading the segments one after the other
 *       2.7×. A lower space bound reads less: with {@code maxSpaceAmplification(1.25)} the S3 recovery took 1.02× a
 *       full one (JMH), at about three times the bytes written per commit.</li>
 *   <li><b>One versioned format.</b> A full checkpoint's index is written in version 2, byte for byte as before; a
 *       differential one's in version 3, which adds one byte saying how to read the payload. A reader refuses a
 *       version it does not know — of the index or of the manifest — with an
 *       {@link io.github.volpex.checkpoint.store.UnsupportedFormatException} naming the version found and those it
 *       reads, and skips such a copy as it skips a corrupt one.</li>
 *   <li><b>The reference rule.</b> A commit refers only to blocks its base refers to (or holds), never to blocks of a
 *       commit that failed or was not yet committed, even if this writer wrote them: what a writer "has stored
 *       before" is what the newest committed checkpoint's manifest says, read back from the repositories after a
 *       restart. Deleting what is older than a durable, verified checkpoint (at a commit's end and in collection)
 *       spares every checkpoint whose segment that checkpoint's manifest lists; a segment is freed only once no
 *       retained checkpoint lists it. When the newest checkpoint's manifest cannot be read, collection deletes
 *       nothing.</li>
 *   <li><b>Durability: every segment referred to is whole at the commit's last listing.</b> A full commit's
 *       guarantee at its commit point is that all {@code n} of its fragments were just written and listed, so it
 *       tolerates {@code n − m} losses from then on. A differential checkpoint needs every segment it lists as well,
 *       and those were written by older commits: left alone (no repair running), their losses add up over the commits
 *       that keep referring to them, and once one has lost more than {@code n − m} every checkpoint listing it is
 *       lost. So a
 *       commit refers to a segment of its base (the base's own one included) only if the job's listing shows all
 *       {@code n} of that segment's fragments, each on the repository the segment's index records for it — in the
 *       listing the commit takes when it starts, and again in one taken once its payload is decided, since reading a
 *       long stream or uploading a large state takes minutes in which fragments are deleted or their hosts depart. A
 *       commit from an array lists again after its own fragments are written and verified, before its index copies;
 *       if a segment it refers to is no longer whole, that attempt is abandoned and the state planned and written
 *       again without the segment. A commit from a stream lists again when the state has ended, before its
 *       compaction decides, and once more after each round of blocks read back, until no segment it still refers to
 *       has dropped out. A segment that is not listed whole — a fragment missing or moved, its repository not
 *       answering, the segment or its index not found — is dropped as compaction drops one: its live blocks are
 *       stored again in the new segment, from the array, or, for a stream (which the store does not keep), read back
 *       from the segment's remaining fragments, any {@code m} of which decode it; a segment that can no longer be
 *       decoded fails the stream commit with {@link io.github.volpex.checkpoint.store.CommitFailedException} before
 *       anything of it is published. A committed differential checkpoint therefore tolerates, from its last listing
 *       on, {@code n − m} fragment losses on its own segment and on each segment it lists, independently, as a full
 *       checkpoint tolerates them on its own — save what the listing cannot see (below). The last listing precedes
 *       the commit point by the index copies, the epoch check and the first marker (for a stream, also by its last
 *       stripes, the replacement of fragment writes that failed — which reads {@code m} fragments of the new segment —
 *       and their verification): a fragment lost in that span is not seen by this commit, and the next commit stores
 *       that segment's live blocks again. The second listing costs one listing request per repository, made only by a
 *       commit that refers to a block of its base (in {@code DifferentialScaleTest}, six repositories: 42 calls per
 *       commit before it, 48 after, the median of commits 100 to 199 of each history); a stream commit whose
 *       compaction read blocks back lists once more after them, and any commit again when a segment drops out.
 *       The check downloads no fragment; it costs one read of the index copies of
 *       each listed segment whose index the store does not have in memory (after a restart), and of each whose listing
 *       shows a fragment where the index remembered does not record it — a repair elsewhere may have moved fragments
 *       and revised the index — once per listing (the store's own repairs update the indices it remembers). What this
 *       cannot see: another store revising a segment's index between two commits of this one, and the moved fragment
 *       lost before this store's next listing while an old copy reappears where the remembered index records it —
 *       the segment then counts as whole with one loss already taken. Storing the live blocks again was chosen over
 *       repairing the segment: from an array it needs no read (the blocks are in the state being committed) and works
 *       even when the segment has fewer than {@code m} fragments left and so could not be repaired, from a stream it
 *       reads only the live blocks (a repair reads and writes whole fragments), it leaves the segment, which other
 *       writers may be repairing, untouched, and it is an ordinary compaction step for the space accounting (the
 *       dropped segment's live bytes count as the new segment's, so the space bound still holds and the segment is
 *       freed once the commit is durable, never before). Its cost is writing that segment's live blocks again
 *       ({@code × n/m}); when repositories keep losing fragments or one does not answer, differential commits approach
 *       full ones, which is what such churn requires. What the listing cannot see is a fragment present but with
 *       damaged bytes: recovery detects it (by CRC-32C and SHA-256) and counts it among the segment's {@code n − m}
 *       tolerated losses, and {@link io.github.volpex.checkpoint.store.CheckpointStore#repair}, which reads every
 *       fragment, replaces it.</li>
 *   <li><b>Commits from a stream.</b> A commit from an {@link java.io.InputStream} cuts the state into blocks as it
 *       reads it, with a window of two of the chunking's largest blocks (at least 64 KiB): a cut depends only on the
 *       bytes from a block's start up to its largest size, so the blocks are those of the same bytes in an array.
 *       One table of blocks ({@code Differential.Blocks}) serves both kinds of commit: each block is hashed and
 *       looked up among the blocks of the base's whole segments, a block new to the commit is given the next place
 *       in the new segment, and the live bytes of each base segment are counted. The new blocks go to the encoder
 *       as they are found, so the stream is read once and the state is never held. Only at the stream's end are the
 *       live bytes known, so compaction is decided then, by the same rule as for an array (below); the live blocks
 *       of the segments it drops — which an array commit copies from the array — are read back from those segments
 *       ({@code m} fragments read in lockstep, stripe by stripe, the pieces checked against their CRC-32C, each
 *       block against the SHA-256 the base's manifest records) and placed after the new blocks, in order of segment
 *       and offset; an array commit places them the same way, so both write the same payload for the same state
 *       (the benchmarks' {@code DifferentialBytesReport} and the tests compare them byte for byte). The read-back
 *       happens before the commit point, under the commit's new identity, and deletes nothing: a crash or a failed
 *       read there ({@link io.github.volpex.checkpoint.store.CommitFailedException}) leaves the base and every
 *       segment it lists as they were, and a stream that throws leaves nothing committed and nothing of its own
 *       visible (its fragments were never published). The segments dropped stay stored until the new checkpoint is
 *       durable, as for an array commit. A block read back that does not match its digest fails the commit rather than
 *       being stored (repair, which checks every fragment's SHA-256, replaces the damaged fragment); an array commit
 *       copies from the array and has no such failure. Memory: the window, one segment of encoding and its pieces, one
 *       decoded segment and {@code m} pieces while reading back, and tables that grow with the number of blocks — not
 *       the state, but O(state / block size): about 300 bytes per block of the state (the table's 48, up to twice that
 *       while
 *       it grows by doubling; a map entry of about 120 per new block; at the stream's end the manifest's copy of
 *       the table and its encoding, 48 each) and about 200 per block of the base (its manifest's 48, a map entry of
 *       about 104, compaction's arrays) — measured by counting the bytes a thread allocates while a table of 2^16
 *       blocks of 256 bytes is built, after warm-up. A 1 GiB state of 16 KiB blocks holds about 20 MB of tables,
 *       one of 256-byte blocks about 1.2 GB. The state, and the payload — the new blocks and the block manifest,
 *       which a recovery rebuilds in one array before it assembles the state in another — must each fit in an
 *       array: a commit whose state or payload outgrows it is refused before its commit point, a stream as soon as
 *       what it has given does, at the latest at its end.</li>
 *   <li><b>Compaction</b> happens inside a commit, so it needs no protocol of its own. A commit counts the live bytes
 *       of each segment it could refer to; it keeps the 64 with the most, and then, while the block bytes stored
 *       (the kept segments' and its own) exceed twice the live bytes (the space bound,
 *       {@code Builder.maxSpaceAmplification}, 2 by default), it stops referring to the kept segment with the
 *       smallest share of live bytes and stores that segment's live blocks again in its own segment (from the
 *       state's array, or read back from the segment by a commit from a stream) — the cleaner of a log-structured
 *       file system, which empties the least-used segments first (Rosenblum and Ousterhout, SOSP '91). The segment
 *       it stops referring to is then freed as any unreferenced one.
 *       Each such step lowers the stored bytes and keeps the live ones, so after a differential commit the block
 *       bytes its checkpoint keeps stored are at most the bound times its live blocks' bytes (the manifests aside:
 *       48 bytes per block), and a recovery reads at most 65 segments. Measured at 10% of the blocks changed per
 *       commit (the benchmarks' {@code DifferentialBytesReport}): a commit writes 1.03× the changed blocks × n/m
 *       plus the index copies, compaction included 1.25× over 30 commits, and the stored bytes stay under 2× the
 *       state; with the bound at 3, 1.07× over 30 commits and 1.08× over 100, with up to 3× the state stored. The
 *       default keeps 2 because the bound also bounds what a recovery reads (whole fragments of every segment it
 *       needs) and what the repositories hold.</li>
 *   <li><b>Crash safety.</b> Before its commit point a differential commit writes only its own segment's fragments
 *       and index copies, under its own new identity (reading older segments back when it commits a stream); it
 *       deletes nothing but what it wrote itself, when it gives up. A crash there leaves the base and every
 *       segment it lists untouched and committed. After the commit point and once durable ({@code k + 1} markers),
 *       it deletes only checkpoints older than itself that its own manifest does not list — so neither its base's
 *       segments it still needs nor itself — with the deletion order of full checkpoints (markers first). A
 *       retried commit or collection recomputes what to delete from a fresh listing and the newest manifest, so a
 *       repetition deletes nothing the newest checkpoint refers to.</li>
 *   <li><b>Repair</b> of a differential checkpoint repairs its own segment and every segment its manifest lists,
 *       whatever their own leases say: damage to an older segment is damage to the newest state.</li>
 *   <li><b>Memory.</b> Per job the store keeps the manifest of its last commit (about 48 bytes per block: 3 MiB for
 *       a 1 GiB state in 16 KiB blocks) and the indices of the segments its base listed (at most 65, each the list
 *       of its n fragment locations: what the durability check uses instead of reading their index copies). A
 *       commit from an array holds the state, the block list of the new manifest and one segment of encoding, the
 *       new blocks being streamed from the state's array; a commit from a stream holds the block list and the
 *       buffers above, not the state; recovery holds the state, the
 *       own payload, and the {@code m} fragments of each segment it reads at once: at most {@code n} segments, the
 *       next one always, others only while the payloads started and not yet copied stay within the state's
 *       length.
 *       {@link io.github.volpex.checkpoint.store.CheckpointStore#recoverTo} assembles a differential state in memory
 *       too: its blocks come from up to 65 segments in the state's order, and the repositories offer whole objects
 *       or streams from their start, not ranges, so writing it block by block in bounded memory would keep a stream
 *       open on {@code m} fragments of every segment at once (hundreds of connections on a network repository) or
 *       read segments many times over.</li>
 * </ul>
 *
 * @since 0.1
 */
package io.github.volpex.checkpoint.store;
