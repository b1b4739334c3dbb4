package io.github.volpex.testkit.selftest.http;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import io.github.volpex.dataspace.spi.AbstractReplica;
import io.github.volpex.dataspace.spi.CallResult;
import io.github.volpex.dataspace.spi.RequestChecks;
import io.github.volpex.dataspace.spi.WaitLimit;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client side of {@link HttpDataspaceFront}: a {@link Dataspace} and {@link DataspaceServer} whose every call
 * travels over HTTP, and whose replicas number their calls themselves, as a network client of the dataspace would.
 * Waiting calls wait on a future completed by one poller thread that long-polls the front's completions; the typed
 * failures are raised again from their facts on the wire.
 */
final class HttpDataspaceClient implements Dataspace, DataspaceServer {

    /** The longest any single HTTP exchange may take; the waits themselves happen on futures, not exchanges. */
    private static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(30);
    /** Completes a replica's waiting future when the replica handle is closed. */
    private static final Throwable HANDLE_CLOSED = new IllegalStateException("replica handle closed");

    private final RequestChecks checks;
    private final URI base;
    private final ExecutorService httpThreads = Executors.newFixedThreadPool(2, daemon("http-client"));
    private final HttpClient http;
    private final Thread poller;
    private final Runnable onClose;
    private final ConcurrentHashMap<Long, CompletableFuture<Reply>> tickets = new ConcurrentHashMap<>();
    /** The request of every ticket still waiting, so that closing can fail its caller with the facts. */
    private final ConcurrentHashMap<Long, Request> ticketRequests = new ConcurrentHashMap<>();
    /** Outcomes that arrived before their ticket was registered (the poll overtook the submit's answer). */
    private final ConcurrentHashMap<Long, byte[]> early = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private volatile boolean stopped;
    /** Runs when the front has answered a submit with a ticket, before the ticket is registered (for tests). */
    volatile Runnable beforeRegistering = () -> { };

    /**
     * Starts a client of the front at {@code base}; {@code onClose} runs once the client has closed the remote
     * dataspace (its owner stops the front there).
     */
    HttpDataspaceClient(URI base, int processCount, DataspaceOptions options, Runnable onClose) {
        this.base = base;
        this.onClose = onClose;
        this.checks = RequestChecks.of(processCount, options);
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
                .connectTimeout(EXCHANGE_TIMEOUT).build();
        this.poller = daemon("completions").newThread(this::poll);
        poller.start();
    }

    /** Stops the poller and the HTTP client's threads (the front is stopped by its owner). Idempotent. */
    void stop() {
        stopped = true;
        poller.interrupt();
        try {
            poller.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        httpThreads.shutdownNow();
    }

    // ---- Dataspace ------------------------------------------------------------------------------------------------

    @Override
    public int processCount() {
        return checks.processCount();
    }

    @Override
    public DataspaceOptions options() {
        return checks.options();
    }

    @Override
    public Replica open(int processId) {
        return open(processId, 0);
    }

    @Override
    public Replica open(int processId, long savedRequestNumber) {
        if (closed) {
            throw RequestChecks.closedOnOpen(processId, savedRequestNumber);
        }
        long mark = highWaterMark(processId);
        boolean inside = pendingRequest(processId).filter(r -> r.requestNumber() == savedRequestNumber).isPresent();
        return new HttpReplica(processId, checks.openAt(processId, savedRequestNumber, mark, inside));
    }

    @Override
    public DataspaceServer server() {
        return this;
    }

    @Override
    public DataspaceStatistics statistics() {
        DataInputStream in = call("statistics", Wire.bytes(out -> { }));
        try {
            EnumMap<Operation, Long> requests = new EnumMap<>(Operation.class);
            for (Operation operation : Operation.values()) {
                requests.put(operation, in.readLong());
            }
            return new DataspaceStatistics(requests, in.readLong(), in.readLong(), in.readLong(), in.readLong(),
                    in.readLong(), in.readLong());
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes the remote dataspace, fails every call still waiting here with {@link DataspaceClosedException} (as the
     * dataspace does), stops this client and runs the owner's {@code onClose}. Later calls fail here, at once.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            send("close", new byte[0]);
        } finally {
            failWaiting();
            stop();
            onClose.run();
        }
    }

    /** Fails every registered waiting call with {@link DataspaceClosedException}, as a closed dataspace does. */
    private void failWaiting() {
        for (Long ticket : tickets.keySet()) {
            CompletableFuture<Reply> reply = tickets.remove(ticket);
            Request request = ticketRequests.remove(ticket);
            if (reply != null && request != null) {
                reply.completeExceptionally(
                        new DataspaceClosedException(request.processId(), request.requestNumber(), true));
            }
        }
    }

    // ---- DataspaceServer ------------------------------------------------------------------------------------------

    @Override
    public Reply handle(Request request) throws InterruptedException {
        return await(request, WaitLimit.unbounded(), null);
    }

    @Override
    public Reply handle(Request request, Duration timeout) throws InterruptedException {
        return await(request, WaitLimit.of(timeout), null);
    }

    /** Submits the request and waits for its reply, as long as {@code wait} allows. */
    private Reply await(Request request, WaitLimit wait, HttpReplica replica) throws InterruptedException {
        CompletableFuture<Reply> reply = submit(request);
        if (replica != null) {
            replica.waiting = reply;
            if (replica.isClosed()) {
                reply.completeExceptionally(HANDLE_CLOSED);
            }
        }
        try {
            if (!wait.isBounded()) {
                return reply.get();
            }
            if (wait.isImmediate() && !reply.isDone()) {
                throw new TimeoutException();
            }
            return reply.get(wait.duration().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException late) {
            reply.cancel(false);
            throw new DataspaceTimeoutException(request.processId(), request.requestNumber(), request.operation(),
                    request.tag(), wait.duration());
        } catch (InterruptedException interrupted) {
            reply.cancel(false);
            throw interrupted;
        } catch (ExecutionException failed) {
            if (failed.getCause() == HANDLE_CLOSED) {
                throw new DataspaceClosedException(request.processId(), request.requestNumber(), false);
            }
            throw (RuntimeException) failed.getCause();
        } finally {
            if (replica != null) {
                replica.waiting = null;
            }
        }
    }

    @Override
    public CompletableFuture<Reply> submit(Request request) {
        Objects.requireNonNull(request, "request");
        if (closed) {
            return CompletableFuture.failedFuture(
                    new DataspaceClosedException(request.processId(), request.requestNumber(), true));
        }
        DataInputStream in;
        try {
            in = send("submit", Wire.bytes(out -> Wire.writeRequest(out, request)));
        } catch (RuntimeException exchangeFailed) {
            if (closed) { // the client closed, and stopped its front, while this exchange was under way
                return CompletableFuture.failedFuture(
                        new DataspaceClosedException(request.processId(), request.requestNumber(), true));
            }
            throw exchangeFailed;
        }
        try {
            byte kind = in.readByte();
            CompletableFuture<Reply> reply = new CompletableFuture<>();
            if (kind == Wire.WAITING) {
                long ticket = in.readLong();
                beforeRegistering.run();
                ticketRequests.put(ticket, request);
                tickets.put(ticket, reply);
                byte[] arrived = early.remove(ticket);
                if (arrived != null) {
                    complete(ticket, arrived);
                }
                if (closed) {
                    // close() ran while the front's answer was on its way: it could not see this ticket, and the
                    // poller that would deliver its outcome is stopped. (close() sets the flag before it fails the
                    // registered tickets, and this registers before reading the flag: one of the two sees the other.)
                    failWaiting();
                }
                // The caller stopped waiting: the front forgets the ticket, the request stays pending.
                reply.whenComplete((done, failure) -> {
                    ticketRequests.remove(ticket);
                    if (tickets.remove(ticket) != null && !closed) {
                        send("forget", Wire.bytes(out -> out.writeLong(ticket)));
                    }
                });
            } else {
                settle(reply, kind, in, true);
            }
            return reply;
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public Optional<Reply> cancel(int processId, long requestNumber) {
        if (closed) {
            throw new DataspaceClosedException(processId, Math.max(1, requestNumber), true);
        }
        return optional("cancel", Wire.bytes(out -> {
            out.writeInt(processId);
            out.writeLong(requestNumber);
        }), Wire.CANCELLED, Wire::readReply);
    }

    @Override
    public Optional<Request> pendingRequest(int processId) {
        return optional("pending", Wire.bytes(out -> out.writeInt(processId)), Wire.NONE, Wire::readRequest);
    }

    @Override
    public long highWaterMark(int processId) {
        return number("highWaterMark", processId);
    }

    @Override
    public long oldestRetained(int processId) {
        return number("oldestRetained", processId);
    }

    private long number(String resource, int processId) {
        try {
            return call(resource, Wire.bytes(out -> out.writeInt(processId))).readLong();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    // ---- transport ------------------------------------------------------------------------------------------------

    /** Sends a message whose answer is a reply or a failure; raises the failure, returns the reply's fields. */
    private DataInputStream call(String resource, byte[] body) {
        DataInputStream in = send(resource, body);
        try {
            throwIfFailure(in.readByte(), in);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return in;
    }

    /**
     * Sends a message whose answer is {@code absent}, a failure, or a value; raises the failure, reads the value with
     * {@code reader}.
     */
    private <T> Optional<T> optional(String resource, byte[] body, byte absent, Wire.Reader<T> reader) {
        DataInputStream in = send(resource, body);
        try {
            byte kind = in.readByte();
            if (kind == absent) {
                return Optional.empty();
            }
            throwIfFailure(kind, in);
            return Optional.of(reader.read(in));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Sends one message and returns its answer. An exchange is short (waits happen on futures), so an interrupt does
     * not cut it: the flag is kept for the wait that follows, where it means what it means in the dataspace.
     */
    private DataInputStream send(String resource, byte[] body) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(resource)).timeout(EXCHANGE_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(request,
                HttpResponse.BodyHandlers.ofByteArray());
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    HttpResponse<byte[]> response;
                    try {
                        response = exchange.get(20, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException notYet) {
                        if (stopped) { // its threads are gone: the exchange may never complete
                            exchange.cancel(true);
                            throw new IllegalStateException("client stopped during /" + resource);
                        }
                        continue;
                    }
                    if (response.statusCode() != 200) {
                        throw new UncheckedIOException(new IOException("the front answered "
                                + response.statusCode() + " to /" + resource));
                    }
                    return new DataInputStream(new ByteArrayInputStream(response.body()));
                } catch (InterruptedException ex) {
                    if (stopped && Thread.currentThread() == poller) {
                        throw new IllegalStateException("client stopped", ex);
                    }
                    interrupted = true;
                } catch (ExecutionException ex) {
                    throw ex.getCause() instanceof IOException
                            ? new UncheckedIOException((IOException) ex.getCause())
                            : new IllegalStateException("exchange with the front failed", ex.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void throwIfFailure(byte kind, DataInputStream in) throws IOException {
        if (kind == Wire.FAILURE) {
            throw Wire.readFailure(in);
        }
    }

    /** Completes a future from an answer: a reply, or a failure (typed failures complete it, mistakes are thrown). */
    private static void settle(CompletableFuture<Reply> reply, byte kind, DataInputStream in, boolean throwMistakes)
            throws IOException {
        if (kind == Wire.REPLY) {
            reply.complete(Wire.readReply(in));
            return;
        }
        RuntimeException failure = Wire.readFailure(in);
        if (failure instanceof DataspaceException || !throwMistakes) {
            reply.completeExceptionally(failure);
        } else {
            throw failure;
        }
    }

    /** The poller: long-polls the front's completions and completes the futures of their tickets. */
    private void poll() {
        while (!stopped) {
            try {
                DataInputStream in = send("completions", new byte[0]);
                for (int count = in.readInt(); count > 0; count--) {
                    long ticket = in.readLong();
                    complete(ticket, Wire.readBytes(in));
                }
            } catch (RuntimeException | IOException ex) {
                if (stopped) {
                    return;
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Completes the ticket's future from its encoded outcome, or keeps the outcome until the ticket is known. */
    private void complete(long ticket, byte[] outcome) {
        CompletableFuture<Reply> reply = tickets.remove(ticket);
        if (reply == null) {
            early.put(ticket, outcome);
            CompletableFuture<Reply> registered = tickets.remove(ticket);
            if (registered == null || early.remove(ticket) == null) {
                return;
            }
            reply = registered;
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(outcome));
            settle(reply, in.readByte(), in, false);
        } catch (IOException ex) {
            reply.completeExceptionally(new UncheckedIOException(ex));
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    // ---- replicas -------------------------------------------------------------------------------------------------

    /** A replica on the client side: {@link AbstractReplica}'s state machine over requests sent to the front. */
    private final class HttpReplica extends AbstractReplica {
        /** The reply the running call waits for, so that closing the handle can wake it. */
        volatile CompletableFuture<Reply> waiting;

        HttpReplica(int processId, long requestNumber) {
            super(checks, processId, requestNumber);
        }

        @Override
        protected CallResult call(Operation operation, long requestNumber, String tag, byte[] data, WaitLimit wait)
                throws InterruptedException {
            checkOpen(requestNumber);
            Reply reply = await(Request.of(operation, processId(), requestNumber, tag, data), wait, this);
            return new CallResult() {
                @Override
                public boolean stored() {
                    return reply.stored();
                }

                @Override
                public byte[] dataForCaller() {
                    return reply.data().orElse(null);
                }
            };
        }

        @Override
        protected Optional<byte[]> cancel(long requestNumber) {
            if (isClosed()) {
                throw new DataspaceClosedException(processId(), requestNumber, false);
            }
            return HttpDataspaceClient.this.cancel(processId(), requestNumber).flatMap(Reply::data);
        }

        private void checkOpen(long requestNumber) {
            if (isClosed()) {
                throw new DataspaceClosedException(processId(), requestNumber, false);
            }
            if (closed) {
                throw new DataspaceClosedException(processId(), requestNumber, true);
            }
        }

        @Override
        protected void onClose() {
            CompletableFuture<Reply> current = waiting;
            if (current != null) {
                current.completeExceptionally(HANDLE_CLOSED);
            }
        }
    }
}
