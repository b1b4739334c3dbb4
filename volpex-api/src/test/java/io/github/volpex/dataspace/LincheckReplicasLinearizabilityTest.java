package io.github.volpex.dataspace;

import static io.github.volpex.dataspace.LincheckSupport.text;
import static io.github.volpex.dataspace.TestSupport.bytes;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Waiting reads and gets, their trailing replicas, try-operations, puts and cancels in one scenario, checked by
 * Lincheck's model checker against {@link DataspaceModel}. Two process <em>slots</em> each issue one request on the
 * tag — slot 0 a read, slot 1 a get — which waits in the tag's queue when the tag is empty; every later call of the
 * slot's request is another replica of it (or a retry), reaching its outcome in the ways a caller can: a call that
 * joins the waiting request and looks at its result, as a timed wait does when its time runs out ({@code receive}: the
 * model checker cannot follow a real timed wait, so the calls do not wait; {@link OutcomeVisibilityTest} runs a real
 * one), a network front's {@code submit}, and the middleware's {@code cancel}, which answers with the outcome when it
 * comes too late.
 * {@code submit} is only made by later replicas: a first issue's future may complete with an outcome decided after the
 * request began to wait, two steps the one-step model cannot express. Puts, try-reads and try-gets
 * are each the first request of a fresh process. The model checker explores the threads' interleavings, switching
 * threads inside the dataspace's steps; every history must be linearizable: in particular no replica may see a put's
 * value before a try-read of another process can.
 *
 * <p>Besides random scenarios it runs the schedule that first showed a served read visible too early: the read waits,
 * then one thread puts while the other repeats the read and then try-reads.
 */
@Param(name = "value", gen = IntGen.class, conf = "0:1")
@Param(name = "slot", gen = IntGen.class, conf = "0:1")
public class LincheckReplicasLinearizabilityTest {

    /** Fresh processes for puts and try-operations; the slots' processes come after them. */
    private static final int PROCESSES = 64;
    private static final int SLOTS = 2;
    private static final String TAG = "t";
    /**
     * How long a slot's call waits: not at all, since the model checker cannot follow a timed wait. A call that joins
     * the waiting request looks at its result once, as a timed wait does when its time runs out.
     */
    private static final Duration WAIT = Duration.ZERO;

    private final Dataspace dataspace = Dataspace.inProcess(PROCESSES + SLOTS);
    private final AtomicInteger nextProcess = new AtomicInteger();

    /** Lincheck creates one instance per invocation. */
    public LincheckReplicasLinearizabilityTest() {
    }

    private static Request slotRequest(int slot) {
        return slot == 0 ? Request.read(PROCESSES + slot, 1, TAG) : Request.get(PROCESSES + slot, 1, TAG);
    }

    private static Operation slotOperation(int slot) {
        return slot == 0 ? Operation.READ : Operation.GET;
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public void put(@Param(name = "value") int value) {
        try {
            dataspace.server().handle(Request.put(nextProcess.getAndIncrement(), 1, TAG, bytes("v" + value)));
        } catch (InterruptedException ex) {
            throw new AssertionError(ex);
        }
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public String tryRead() {
        try {
            return text(dataspace.server().handle(Request.tryRead(nextProcess.getAndIncrement(), 1, TAG)));
        } catch (InterruptedException ex) {
            throw new AssertionError(ex);
        }
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public String tryGet() {
        try {
            return text(dataspace.server().handle(Request.tryGet(nextProcess.getAndIncrement(), 1, TAG)));
        } catch (InterruptedException ex) {
            throw new AssertionError(ex);
        }
    }

    /**
     * The slot's request: issued the first time (it waits in the tag's queue if the tag is empty), then joined by
     * every later call as a trailing replica or a retry would, which looks at its result.
     */
    @org.jetbrains.lincheck.datastructures.Operation
    public String receive(@Param(name = "slot") int slot) {
        try {
            return text(dataspace.server().handle(slotRequest(slot), WAIT));
        } catch (DataspaceTimeoutException pending) {
            return DataspaceModel.PENDING;
        } catch (DataspaceCancelledException cancelled) {
            return DataspaceModel.CANCELLED;
        } catch (InterruptedException ex) {
            throw new AssertionError(ex);
        }
    }

    /**
     * The slot's request through {@code submit} by a later replica, once some replica issued it: its outcome if the
     * future is complete on return. (Submitting the first issue would return an outcome decided after the request
     * began to wait, which the one-step model cannot express.)
     */
    @org.jetbrains.lincheck.datastructures.Operation
    public String submit(@Param(name = "slot") int slot) {
        if (dataspace.server().highWaterMark(PROCESSES + slot) == 0) {
            return DataspaceModel.NOT_ISSUED;
        }
        CompletableFuture<Reply> reply = dataspace.server().submit(slotRequest(slot));
        if (!reply.isDone()) {
            reply.cancel(false);
            return DataspaceModel.PENDING;
        }
        try {
            return text(reply.get());
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof DataspaceCancelledException) {
                return DataspaceModel.CANCELLED;
            }
            throw new AssertionError(failed);
        } catch (InterruptedException ex) {
            throw new AssertionError(ex);
        }
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public String cancel(@Param(name = "slot") int slot) {
        try {
            return dataspace.server().cancel(PROCESSES + slot, 1).map(LincheckSupport::text)
                    .orElse(DataspaceModel.CANCELLED);
        } catch (IllegalArgumentException notIssued) {
            return DataspaceModel.NOT_ISSUED;
        }
    }

    @Test
    @Timeout(1200) // a hang guard only: the search is bounded CPU work, many times slower on a loaded machine
    void waiting_requests_replicas_and_try_operations_model_checked_together_are_linearizable() throws Exception {
        new ModelCheckingOptions()
                .addCustomScenario(readServedWhileRepeatedThenTryRead())
                .iterations(20)
                .invocationsPerIteration(40)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1)
                .sequentialSpecification(Model.class)
                .check(getClass());
    }

    /** The read waits; one thread puts, the other repeats the read (a trailing replica) and then try-reads. */
    private static ExecutionScenario readServedWhileRepeatedThenTryRead() throws NoSuchMethodException {
        Class<?> test = LincheckReplicasLinearizabilityTest.class;
        Actor receive = actor(test.getMethod("receive", int.class), 0);
        return new ExecutionScenario(List.of(receive),
                List.of(List.of(actor(test.getMethod("put", int.class), 0)),
                        List.of(receive, actor(test.getMethod("tryRead")))),
                List.of(actor(test.getMethod("tryGet"))), null);
    }

    private static Actor actor(java.lang.reflect.Method method, Object... arguments) {
        return new Actor(method, List.of(arguments), false, false, false, false, false);
    }

    /** The sequential specification: {@link DataspaceModel} behind the same operations. */
    public static final class Model {
        private final DataspaceModel model = new DataspaceModel();

        /** Lincheck creates one model per sequential run. */
        public Model() {
        }

        public void put(int value) {
            model.put(TAG, "v" + value);
        }

        public String tryRead() {
            return model.tryRead(TAG);
        }

        public String tryGet() {
            return model.tryGet(TAG);
        }

        public String receive(int slot) {
            return model.slotReceiveOrPend(slot, slotOperation(slot), TAG);
        }

        public String submit(int slot) {
            return model.slotOutcome(slot);
        }

        public String cancel(int slot) {
            return model.slotCancel(slot);
        }
    }
}
