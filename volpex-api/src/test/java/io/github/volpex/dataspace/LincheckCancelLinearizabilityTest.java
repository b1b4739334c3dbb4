package io.github.volpex.dataspace;

import static io.github.volpex.dataspace.LincheckSupport.text;
import static io.github.volpex.dataspace.TestSupport.bytes;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Cancelling checked by Lincheck: the first request of one of two process <em>slots</em> — a get with a zero timeout
 * that may wait — is issued, repeated and cancelled while puts and try-gets of fresh processes race with it, on one
 * tag; every history is linearizable with respect to {@link DataspaceModel}: a cancel takes effect atomically between
 * puts, a cancelled get consumes nothing, a get served before the cancel keeps its data, and every repetition of the
 * request returns its one outcome.
 */
@Param(name = "value", gen = IntGen.class, conf = "0:2")
@Param(name = "slot", gen = IntGen.class, conf = "0:1")
public class LincheckCancelLinearizabilityTest {

    /** Fresh processes for puts and try-gets; the slots' processes come after them. */
    private static final int PROCESSES = 64;
    private static final int SLOTS = 2;
    private static final String TAG = "t";

    private final Dataspace dataspace = Dataspace.inProcess(PROCESSES + SLOTS);
    private final AtomicInteger nextProcess = new AtomicInteger();

    /** Lincheck creates one instance per invocation. */
    public LincheckCancelLinearizabilityTest() {
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public void put(@Param(name = "value") int value) {
        try {
            dataspace.server().handle(Request.put(nextProcess.getAndIncrement(), 1, TAG,
                    bytes("v" + value)));
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

    @org.jetbrains.lincheck.datastructures.Operation
    public String slotGetOrPend(@Param(name = "slot") int slot) {
        try {
            return text(dataspace.server().handle(Request.get(PROCESSES + slot, 1, TAG), Duration.ZERO));
        } catch (DataspaceTimeoutException pending) {
            return DataspaceModel.PENDING;
        } catch (DataspaceCancelledException cancelled) {
            return DataspaceModel.CANCELLED;
        } catch (InterruptedException ex) {
            throw new AssertionError(ex);
        }
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public String slotCancel(@Param(name = "slot") int slot) {
        try {
            return dataspace.server().cancel(PROCESSES + slot, 1).map(LincheckSupport::text)
                    .orElse(DataspaceModel.CANCELLED);
        } catch (IllegalArgumentException notIssued) {
            return DataspaceModel.NOT_ISSUED;
        }
    }

    @Test
    @Timeout(900) // a hang guard only: the search is bounded CPU work, many times slower on a loaded machine
    void cancels_stress_histories_are_linearizable() {
        LincheckSupport.stress(getClass(), Model.class, 10, 300, 2);
    }

    @Test
    @Timeout(1200) // a hang guard only, as above
    void cancels_model_checked_interleavings_are_linearizable() {
        LincheckSupport.modelCheck(getClass(), Model.class, 40, 20, 2);
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

        public String tryGet() {
            return model.tryGet(TAG);
        }

        public String slotGetOrPend(int slot) {
            return model.slotGetOrPend(slot, TAG);
        }

        public String slotCancel(int slot) {
            return model.slotCancel(slot);
        }
    }
}
