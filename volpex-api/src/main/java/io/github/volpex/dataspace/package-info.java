/**
 * The Volpex dataspace (Kanna, Subhlok, Gabriel, Cheung and Anderson, "Redundancy Tolerant Communication on Volatile
 * Nodes", UH-CS-08-17, §II–III): {@code put}, {@code read} and {@code get} on tagged data, where every replica of a
 * logical process — whatever its speed, and also after a restart from a checkpoint — observes exactly what a single run
 * would.
 *
 * <h2>Where to start</h2>
 * {@link io.github.volpex.dataspace.Dataspace#inProcess(int, DataspaceOptions)} creates a dataspace for a number of
 * logical processes; each running instance of a process opens a {@link io.github.volpex.dataspace.Replica} with
 * {@link io.github.volpex.dataspace.Dataspace#open(int)} and calls {@code put}, {@code read}, {@code get} and the
 * rest. Middleware that numbers requests itself (a network front) uses
 * {@link io.github.volpex.dataspace.DataspaceServer} with {@link io.github.volpex.dataspace.Request} and
 * {@link io.github.volpex.dataspace.Reply} — {@code submit} to serve waiting callers without a thread each — and
 * carries them in the wire form that interface documents. Implementers of a dataspace of their own start from
 * {@link io.github.volpex.dataspace.spi}: the replica handle's state machine, the request checks and the counters
 * that every implementation here shares.
 *
 * <h2>The execution model (§II-B) and how it is implemented (§III-A)</h2>
 * Every request carries (process id, request number); replicas of one process issue identical sequences, so equal
 * pairs name the same logical request. The dataspace keeps, per process, the high-water mark (the highest request
 * number issued) and a read log of recent outcomes.
 * <ol>
 *   <li><b>Atomicity.</b> All requests are linearizable: they behave as if run one at a time in one global serial
 *       order (the paper uses a single-threaded server); requests on different tags of different processes run in
 *       parallel (see "Locking" below).</li>
 *   <li><b>Single put.</b> A put above the high-water mark is applied; one at or below it is a duplicate and is
 *       ignored — also when its log entry has been evicted, since ignoring needs no outcome.</li>
 *   <li><b>Identical get.</b> A read-type request above the high-water mark runs against the table and its outcome is
 *       logged under (process, request number); one at or below it is answered from the log, byte for byte, whatever
 *       the table holds now.</li>
 * </ol>
 *
 * <h2>Where this implementation departs from the paper, and why</h2>
 * <ul>
 *   <li><b>Pending requests are shared.</b> A read or get that waits is a pending request keyed by (process, request
 *       number); replicas issuing it at the same time join it and receive the one result, so two replicas racing at
 *       the same frontier consume one tuple. A timeout or an interrupt leaves the request pending with its place in
 *       the tag's queue; a retry or another replica receives the eventual result.</li>
 *   <li><b>Cancelling is an outcome.</b> A caller that stops waiting abandons nothing, since its replicas may still
 *       need the result. Giving a request up is an act of the process, so it is one step of the serial order:
 *       {@link io.github.volpex.dataspace.DataspaceServer#cancel(int, long)} (and
 *       {@link io.github.volpex.dataspace.Replica#cancelPending()} for the request a replica's own call left pending)
 *       either finds the request still waiting — it leaves its tag's queue, consumes nothing, and completes with the
 *       logged outcome "cancelled", which every replica receives as
 *       {@link io.github.volpex.dataspace.DataspaceCancelledException} — or finds it completed and returns its
 *       outcome, so data already taken is never lost. Either way the request is complete, the process's next request
 *       follows it, and cancelling again returns the same answer. This is how middleware stops the pending get of a
 *       process that will never restart from taking the next tuple
 *       ({@link io.github.volpex.dataspace.DataspaceServer#pendingRequest(int)} says what it waits for).</li>
 *   <li><b>A restart inside a call.</b> {@link io.github.volpex.dataspace.Replica#requestNumber()} counts completed
 *       requests, so a checkpoint saved while a call waits carries the number before it and the restarted replica
 *       repeats the call. A saved number whose request is still pending can only come from a checkpoint that counted
 *       the call as issued (middleware that numbers requests itself, a system-level checkpoint of a blocked process):
 *       {@link io.github.volpex.dataspace.Dataspace#open(int, long)} then opens the replica one request earlier, inside
 *       the call, so that it receives the call's result instead of skipping it.</li>
 *   <li><b>Fair wake-up.</b> Each tag has a FIFO queue of pending requests; a put serves them in arrival order: the
 *       reads before the first get receive the data, the first get takes it.</li>
 *   <li><b>Every request is logged, puts included</b> (a put's entry holds its kind and tag but no data). The paper
 *       logs read results only; logging every request makes the log's reach a simple number of requests — a replica
 *       may lag its process's leader by up to {@link io.github.volpex.dataspace.DataspaceOptions#readLogCapacity()}
 *       requests — and lets every replayed request be checked against what was first issued: another kind or tag is
 *       a {@link io.github.volpex.dataspace.ReplicaDivergenceException}. An optional byte budget bounds the data the
 *       log retains.</li>
 *   <li><b>Eviction is an error, not a hang.</b> A replica that needs an evicted outcome gets
 *       {@link io.github.volpex.dataspace.ReadLogEvictedException} at once (the paper notes that a limited log "can
 *       halt" a very old replica); the request is never re-executed against the current table.</li>
 *   <li><b>The paper's future work:</b> non-blocking {@code tryRead} and {@code tryGet} (their "absent" answer is
 *       logged like any outcome, so a trailing replica sees "absent" exactly when the leader did), single-assignment
 *       {@code putIfAbsent} (its yes/no answer is logged too), timeouts, and the request number as checkpointable
 *       process state ({@link io.github.volpex.dataspace.Replica#requestNumber()},
 *       {@link io.github.volpex.dataspace.Dataspace#open(int, long)}).</li>
 *   <li>Replicas of a process must issue requests in sequence; a request number that skips ahead, or a new request
 *       while the previous one is pending, is rejected as a caller error. Duplicate puts are not compared byte for
 *       byte with the first one (that would cost the copy the paper's design avoids).</li>
 * </ul>
 *
 * <h2>Locking, and why it is linearizable</h2>
 * One lock for everything made every request of every process wait for every other one. The in-process dataspace
 * splits its state in two:
 * <ul>
 *   <li><b>Per tag:</b> its data, or the FIFO queue of reads and gets waiting for it (never both). Each tag is one
 *       entry of a {@code ConcurrentHashMap}, changed only by the map's atomic per-key operations ({@code putIfAbsent},
 *       the conditional {@code remove}, {@code compute}). A step on a tag is atomic, steps on one tag are totally
 *       ordered, and steps on different tags touch disjoint state.</li>
 *   <li><b>Per process:</b> its high-water mark, its request that waits, its read log and its counters, guarded by
 *       the process's own lock — a lock word inside the process's state, taken by compare-and-set (a contender spins,
 *       then yields: the lock is held for a few operations and never while anything waits). Everything a request
 *       writes on its process's behalf, the replica handle included, lies between cache-line padding, so that two
 *       processes on two threads never write one cache line wherever the collector moves their objects.</li>
 * </ul>
 * Which requests need which:
 * <ul>
 *   <li>A <b>new request</b> (the leading replica's) takes its process's lock, claims the next request number
 *       (checking that the previous one completed), runs <em>one</em> step on its tag — the step is the request's
 *       linearization point — logs the outcome and releases the lock. When no request waits for the tag, the step is
 *       the map operation a plain map user would make ({@code putIfAbsent} for a put, {@code get} then the conditional
 *       {@code remove} for a get); otherwise it is a {@code compute} that serves the queue.</li>
 *   <li>A put that <b>serves waiting requests of other processes</b> decides their outcomes inside its own step,
 *       without taking their process locks, but no one may see such an outcome before the step is complete: until the
 *       map has installed the tag's new state, another process's {@code tryRead} still finds the tag as it was, and a
 *       reader that had already received the put's data would fit no serial order. So the step only records each
 *       decided outcome in the waiting request; the putting thread publishes it right after the step. A caller that
 *       finds an outcome decided but not yet published — a replica of the served process joining or replaying the
 *       request, a timed wait that looks again, {@code submit}, {@code pendingRequest}, a restart, a cancel — enters
 *       the tag's map entry with a step that changes nothing, which waits for the deciding step to finish, and
 *       publishes the outcome itself; so nobody sees it before its step, and nobody who comes after the step misses
 *       it. Each served process moves the published outcome into its log the next time its lock is taken, before
 *       anything under that lock reads its state.</li>
 *   <li>A <b>replayed request</b> (a trailing replica, a retry) takes only its process's lock: it joins the waiting
 *       request or reads the log, and changes no tag (it may wait for a deciding step as above).</li>
 *   <li>A <b>cancel</b> takes the process's lock, then runs a step on the waiting request's tag that removes it from
 *       the queue and decides "cancelled", published after its step — unless a put's step served it first, which
 *       the cancel then reports (its own step on the tag comes after that one, which is therefore complete).</li>
 *   <li><b>Waiting</b> holds no lock: a caller waits on a {@code CompletableFuture} of its own, registered with the
 *       waiting request and completed once the step that decided the outcome has released its locks.</li>
 * </ul>
 * Locks are taken in one order only: a process's lock, then (inside it) the map's lock on one tag's entry. Nothing
 * inside a step on a tag takes another lock, waiting for a deciding step takes only that tag's entry, and a waiting
 * request's own monitor, which guards its list of waiting callers, is only ever taken with no other lock held; so there
 * is no cycle and no deadlock.
 *
 * <p><b>Why this is linearizable.</b> A logical request spans from the first invocation by any of its process's
 * replicas to the first response any of them receives (a call that timed out, was interrupted or was closed gave no
 * response: its request stays pending). Its linearization point is its step on its tag — the moment the map holds the
 * step's new state, which is when readers of the map (the lock-free {@code get} of a try-operation or of a leading
 * read) see it — or, for a request that waited, the step of the put or cancel that completed it. That point lies
 * inside the span: after the leading replica's invocation, since the leader runs the step; and before every response,
 * since a response carries an outcome, which no caller sees before the step that produced it is complete (the outcome
 * of a request that did not wait is logged after its step under its process's lock; that of a waiting one is published
 * only after its deciding step, as above). Steps on one tag are totally ordered by the map and steps on different tags
 * touch disjoint state, so ordering the requests by their points gives one serial order that respects real time: each
 * tag's history is linearizable and, linearizability being local (Herlihy and Wing, 1990), so is the whole. The
 * per-process rules — single put, identical get, requests in sequence — hold because the process lock is held from
 * the claim of a request number through its step to the logging of its outcome, so two replicas never both execute
 * one request and a replay sees either the waiting request or its logged outcome. A caller may still see a request as
 * waiting for a moment after the step that completed it, while that step's thread has not published the outcome; it
 * then waits for the step, or, if its own time runs out first, gets a timeout, which says nothing about the request.
 *
 * <p>The first version of this argument claimed more than the code did: it took a put's step to be atomic for
 * everyone, while the outcomes the step decided for waiting requests were readable from inside the step, before the
 * map held the put's data, so a replica could return the data while another process's {@code tryRead} found nothing.
 * Tests now hold a step at that point, let Lincheck's model checker switch threads inside the steps, and judge
 * histories of replicas on threads with the testkit's linearizability checker.
 * {@link io.github.volpex.dataspace.Dataspace#statistics()} reads one process at a time, so its counters of different
 * processes may be read at slightly different moments.
 *
 * <h2>Threads</h2>
 * Everything is thread-safe. A blocked caller waits on a {@code CompletableFuture} of its own (never on a monitor),
 * so virtual threads do not pin; it is interruptible, and closing its replica handle or the dataspace wakes it with
 * {@link io.github.volpex.dataspace.DataspaceClosedException}. The library starts no thread.
 *
 * @since 0.1
 */
package io.github.volpex.dataspace;
