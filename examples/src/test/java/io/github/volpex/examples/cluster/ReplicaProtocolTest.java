package io.github.volpex.examples.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.interval.NiHarwoodEstimate;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The replica protocol between a coordinator and its replica JVMs: every report and order reads back as what was
 * written, the lines are those the protocol has always used, and a malformed line is refused with a message that
 * quotes it.
 */
class ReplicaProtocolTest {

    @Property
    void every_report_reads_back_as_written(@ForAll("reports") ReplicaReport report) {
        String line = report.format();
        assertTrue(line.startsWith("@") && !line.contains("\n") && !line.contains("\r"), line);
        assertEquals(Optional.of(report), ReplicaReport.parse(line), line);
    }

    @Property
    void every_order_reads_back_as_written(@ForAll("orders") ReplicaOrder order) {
        String line = order.format();
        assertFalse(line.contains("\n") || line.contains("\r"), line);
        assertEquals(order, ReplicaOrder.parse(line), line);
    }

    @Property
    void any_message_becomes_free_text_that_reads_back(@ForAll String message) {
        String text = Fields.oneLine(message);
        assertTrue(text.length() <= Fields.MAX_TEXT, text);
        assertEquals(text, Fields.oneLine(text), "idempotent");
        ReplicaReport report = new ReplicaReport.CommitFailed(text);
        assertEquals(Optional.of(report), ReplicaReport.parse(report.format()));
    }

    @Test
    void the_lines_are_those_of_the_protocol() {
        assertEquals("@clock 12.5 3 17", new ReplicaReport.Clock(12.5, 3, 17).format());
        assertEquals("@step 4 120 2 65536", new ReplicaReport.Step(4, 120, 2, 65_536).format());
        assertEquals("@checkpoint 4 1500.0 Infinity",
                new ReplicaReport.Checkpoint(4, 1500.0, Double.POSITIVE_INFINITY).format());
        assertEquals("@restored checkpoint 4 812",
                new ReplicaReport.Restored(ReplicaReport.Origin.CHECKPOINT, 4, 812).format());
        assertEquals("@restored start 0 0", new ReplicaReport.Restored(ReplicaReport.Origin.START, 0, 0).format());
        assertEquals("@writer 3", new ReplicaReport.Elected(3).format());
        assertEquals("@candidate -1", new ReplicaReport.Demoted(-1).format());
        assertEquals("@stale 2", new ReplicaReport.Stale(2).format());
        assertEquals("@persist durable 1.5E-4 0.25 6400 9100",
                new ReplicaReport.Persist(ReplicaReport.Outcome.DURABLE, 1.5e-4, 0.25, 6_400, 9_100).format());
        assertEquals("@persist superseded 2.0E-4 0.0 0 0",
                new ReplicaReport.Persist(ReplicaReport.Outcome.SUPERSEDED, 2e-4, 0, 0, 0).format());
        assertEquals("@repaired 6", new ReplicaReport.Repaired(6, Optional.empty()).format());
        assertEquals("@repaired 0 too few hosts", new ReplicaReport.Repaired(0, Optional.of("too few hosts")).format());
        assertEquals("@commit-failed 5 of 9 taken", new ReplicaReport.CommitFailed("5 of 9 taken").format());
        assertEquals("@done AQID", ReplicaReport.Done.of(new byte[] {1, 2, 3}).format());
        assertEquals("ack 17", new ReplicaOrder.Ack(17).format());
        assertEquals("estimate 1.0E-4 20.0 50.0",
                new ReplicaOrder.Estimate(new NiHarwoodEstimate(1e-4, 20, 50)).format());
        assertEquals("departed 7", new ReplicaOrder.Departed(7).format());
    }

    @Test
    void lines_for_people_are_no_report() {
        assertEquals(Optional.empty(), ReplicaReport.parse("process 3: step 4 of 60 done (request 812)"));
        assertEquals(Optional.empty(), ReplicaReport.parse(""));
    }

    @Test
    void a_malformed_report_is_refused_quoting_the_line_and_saying_what_is_wrong() {
        assertRefused("malformed @clock line (missing a count): '@clock 1.5 3'", "@clock 1.5 3");
        assertRefused("malformed @clock line (not a number: x): '@clock x 3 1'", "@clock x 3 1");
        assertRefused("malformed @clock line (not a number as written by Double.toString: 1e3): '@clock 1e3 3 1'",
                "@clock 1e3 3 1");
        assertRefused("malformed @step line (unexpected field 5): '@step 1 2 3 4 5'", "@step 1 2 3 4 5");
        assertRefused("malformed @step line (not a count: -2): '@step 1 -2 3 4'", "@step 1 -2 3 4");
        assertRefused("malformed @writer line (not a count: 99999999999999999999): '@writer 99999999999999999999'",
                "@writer 99999999999999999999");
        assertRefused("malformed @restored line (not an origin (start, scratch, checkpoint or lost): later): "
                + "'@restored later 0 0'", "@restored later 0 0");
        assertRefused("malformed @commit-failed line (missing text): '@commit-failed'", "@commit-failed");
        assertRefused("unknown replica report @bogus: '@bogus 1'", "@bogus 1");
        assertRefused("malformed @persist line (not an outcome (durable, superseded, failed or abandoned): lost): "
                + "'@persist lost 0.0 0.0 0 0'", "@persist lost 0.0 0.0 0 0");
        assertRefused("malformed @persist line (missing a count): '@persist durable 0.0 0.0 5'",
                "@persist durable 0.0 0.0 5");
        assertRefused("malformed @clock line (not a count: ): '@clock 1.5  3 1'", "@clock 1.5  3 1");
        assertRefused("malformed @clock line (virtualSeconds must be finite and >= 0: -1.0): '@clock -1.0 3 1'",
                "@clock -1.0 3 1");
        assertRefused("malformed @commit-failed line (reason must be one line of single-spaced text, at most 300 "
                + "characters: ' two  spaces'): '@commit-failed  two  spaces'", "@commit-failed  two  spaces");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplicaReport.parse("@done !!")).getMessage()
                .startsWith("malformed @done line (stateBase64 must be Base64: "));
    }

    private static void assertRefused(String message, String line) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> ReplicaReport.parse(line))
                .getMessage());
    }

    @Test
    void a_malformed_order_is_refused_quoting_the_line_and_saying_what_is_wrong() {
        assertEquals("unknown replica order stop: 'stop'",
                assertThrows(IllegalArgumentException.class, () -> ReplicaOrder.parse("stop")).getMessage());
        assertEquals("malformed ack line (missing a count): 'ack'",
                assertThrows(IllegalArgumentException.class, () -> ReplicaOrder.parse("ack")).getMessage());
        assertEquals("malformed departed line (unexpected field 2): 'departed 1 2'",
                assertThrows(IllegalArgumentException.class, () -> ReplicaOrder.parse("departed 1 2")).getMessage());
        String negative = assertThrows(IllegalArgumentException.class,
                () -> ReplicaOrder.parse("estimate -1.0 20.0 50.0")).getMessage();
        assertTrue(negative.startsWith("malformed estimate line (failureRatePerSecond")
                && negative.endsWith("'estimate -1.0 20.0 50.0'"), negative);
    }

    @Test
    void a_report_with_bad_fields_cannot_be_made() {
        assertThrows(IllegalArgumentException.class, () -> new ReplicaReport.Clock(Double.NaN, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaReport.Step(-1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaReport.CommitFailed("two\nlines"));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaReport.CommitFailed(" padded"));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaReport.Repaired(0, Optional.of("")));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaReport.Demoted(-2));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaReport.Done(""));
        assertThrows(IllegalArgumentException.class,
                () -> new ReplicaReport.Persist(ReplicaReport.Outcome.DURABLE, -1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new ReplicaReport.Persist(ReplicaReport.Outcome.DURABLE, 0, 0, -1, 0));
        assertThrows(NullPointerException.class, () -> new ReplicaReport.Persist(null, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaOrder.Departed(-1));
    }

    @Provide
    Arbitrary<ReplicaReport> reports() {
        Arbitrary<Integer> steps = Arbitraries.integers().greaterOrEqual(0);
        Arbitrary<Long> counts = Arbitraries.longs().greaterOrEqual(0);
        Arbitrary<Long> epochs = Arbitraries.longs().greaterOrEqual(-1);
        Arbitrary<Double> seconds = Arbitraries.doubles().between(0, Double.MAX_VALUE)
                .edgeCases(edges -> edges.add(0.0));
        Arbitrary<Double> intervals = Arbitraries.oneOf(Arbitraries.doubles(),
                Arbitraries.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0));
        Arbitrary<String> text = Arbitraries.strings().ofMinLength(0).ofMaxLength(400).map(Fields::oneLine);
        Arbitrary<String> base64 = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(64)
                .map(bytes -> ReplicaReport.Done.of(bytes).stateBase64());
        List<Arbitrary<? extends ReplicaReport>> kinds = List.of(
                Combinators.combine(Arbitraries.of(ReplicaReport.Origin.class), steps, counts)
                        .as(ReplicaReport.Restored::new),
                Combinators.combine(seconds, steps, counts).as(ReplicaReport.Clock::new),
                Combinators.combine(steps, counts, counts, counts).as(ReplicaReport.Step::new),
                Combinators.combine(steps, seconds, intervals).as(ReplicaReport.Checkpoint::new),
                Combinators.combine(Arbitraries.of(ReplicaReport.Outcome.class), seconds, seconds, counts, counts)
                        .as(ReplicaReport.Persist::new),
                epochs.map(ReplicaReport.Stale::new),
                text.map(ReplicaReport.CommitFailed::new),
                Combinators.combine(steps, text.optional()).as(ReplicaReport.Repaired::new),
                counts.map(ReplicaReport.Elected::new),
                epochs.map(ReplicaReport.Demoted::new),
                base64.map(ReplicaReport.Done::new));
        return Arbitraries.oneOf(kinds);
    }

    @Provide
    Arbitrary<ReplicaOrder> orders() {
        Arbitrary<Double> finite = Arbitraries.doubles().between(0, Double.MAX_VALUE);
        Arbitrary<Double> positive = Arbitraries.doubles().between(0, false, Double.MAX_VALUE, true).ofScale(9);
        return Arbitraries.oneOf(List.of(
                Arbitraries.longs().greaterOrEqual(0).map(ReplicaOrder.Ack::new),
                Combinators.combine(finite, positive, finite)
                        .as((rate, overhead, download) -> new ReplicaOrder.Estimate(
                                new NiHarwoodEstimate(rate, overhead, download))),
                Arbitraries.integers().greaterOrEqual(0).map(ReplicaOrder.Departed::new)));
    }
}
