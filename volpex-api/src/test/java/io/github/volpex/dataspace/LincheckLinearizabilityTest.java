package io.github.volpex.dataspace;

import static io.github.volpex.dataspace.LincheckSupport.text;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Rule 1 (atomicity) checked by Lincheck: concurrent histories of the non-blocking requests (puts, try-ops, reads and
 * gets with a zero timeout) are linearizable with respect to {@link DataspaceModel}. Every operation is the first
 * request of a fresh logical process, so that each is an independent request at the leading front.
 */
@Param(name = "tag", gen = IntGen.class, conf = "0:1")
@Param(name = "value", gen = IntGen.class, conf = "0:2")
public class LincheckLinearizabilityTest {

    private static final int PROCESSES = 64;

    private final Dataspace dataspace = Dataspace.inProcess(PROCESSES);
    private final AtomicInteger nextProcess = new AtomicInteger();

    /** Lincheck creates one instance per invocation. */
    public LincheckLinearizabilityTest() {
    }

    private Reply handle(Request request) {
        try {
            return dataspace.server().handle(request, Duration.ZERO);
        } catch (InterruptedException ex) {
            throw new AssertionError(ex);
        }
    }

    private int process() {
        return nextProcess.getAndIncrement();
    }

    private static String tag(int tag) {
        return "t" + tag;
    }

    private static byte[] bytes(int value) {
        return TestSupport.bytes("v" + value);
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public void put(@Param(name = "tag") int tag, @Param(name = "value") int value) {
        handle(Request.put(process(), 1, tag(tag), bytes(value)));
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public boolean putIfAbsent(@Param(name = "tag") int tag, @Param(name = "value") int value) {
        return handle(Request.putIfAbsent(process(), 1, tag(tag), bytes(value))).stored();
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public String tryRead(@Param(name = "tag") int tag) {
        return text(handle(Request.tryRead(process(), 1, tag(tag))));
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public String tryGet(@Param(name = "tag") int tag) {
        return text(handle(Request.tryGet(process(), 1, tag(tag))));
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public String readOrPend(@Param(name = "tag") int tag) {
        return receiveOrPend(Request.read(process(), 1, tag(tag)));
    }

    @org.jetbrains.lincheck.datastructures.Operation
    public String getOrPend(@Param(name = "tag") int tag) {
        return receiveOrPend(Request.get(process(), 1, tag(tag)));
    }

    private String receiveOrPend(Request request) {
        try {
            return text(handle(request));
        } catch (DataspaceTimeoutException pending) {
            return DataspaceModel.PENDING;
        }
    }

    @Test
    @Timeout(900) // a hang guard only: the search is bounded CPU work, many times slower on a loaded machine
    void rule1_atomicity_stress_histories_are_linearizable() {
        LincheckSupport.stress(getClass(), Model.class, 10, 500, 1);
    }

    @Test
    @Timeout(1200) // a hang guard only, as above
    void rule1_atomicity_model_checked_interleavings_are_linearizable() {
        LincheckSupport.modelCheck(getClass(), Model.class, 40, 20, 1);
    }

    /** The sequential specification: {@link DataspaceModel} behind the same operations. */
    public static final class Model {
        private final DataspaceModel model = new DataspaceModel();

        /** Lincheck creates one model per sequential run. */
        public Model() {
        }

        public void put(int tag, int value) {
            model.put(tag(tag), "v" + value);
        }

        public boolean putIfAbsent(int tag, int value) {
            return model.putIfAbsent(tag(tag), "v" + value);
        }

        public String tryRead(int tag) {
            return model.tryRead(tag(tag));
        }

        public String tryGet(int tag) {
            return model.tryGet(tag(tag));
        }

        public String readOrPend(int tag) {
            return model.readOrPend(tag(tag));
        }

        public String getOrPend(int tag) {
            return model.getOrPend(tag(tag));
        }
    }
}
