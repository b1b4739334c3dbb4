package io.github.volpex.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SearchDepthTest {

    private static final String SEED = "volpex.testsupport.test.seed";
    private String saved;

    @BeforeEach
    void save() {
        saved = System.getProperty(SearchDepth.PROPERTY);
        System.clearProperty(SearchDepth.PROPERTY);
        System.clearProperty(SEED);
    }

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(SearchDepth.PROPERTY);
        } else {
            System.setProperty(SearchDepth.PROPERTY, saved);
        }
        System.clearProperty(SEED);
    }

    @Test
    void the_factor_is_one_unless_set() {
        assertEquals(1, SearchDepth.factor());
        assertFalse(SearchDepth.deep());
        assertEquals(300, SearchDepth.rounds(300));
        System.setProperty(SearchDepth.PROPERTY, " 100 ");
        assertEquals(100, SearchDepth.factor());
        assertTrue(SearchDepth.deep());
        assertEquals(30_000, SearchDepth.rounds(300));
        System.setProperty(SearchDepth.PROPERTY, "10000");
        assertEquals(Integer.MAX_VALUE, SearchDepth.rounds(Integer.MAX_VALUE / 2));
    }

    @Test
    void a_malformed_factor_or_round_count_is_refused_with_the_value() {
        for (String bad : new String[] {"0", "-3", "10001", "1e2", "many"}) {
            System.setProperty(SearchDepth.PROPERTY, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, SearchDepth::factor);
            assertTrue(e.getMessage().startsWith("volpex.search.factor must be "), e.getMessage());
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
        System.clearProperty(SearchDepth.PROPERTY);
        assertEquals("ordinaryRounds must be >= 1: 0",
                assertThrows(IllegalArgumentException.class, () -> SearchDepth.rounds(0)).getMessage());
    }

    @Test
    void each_seed_draws_fresh_seeds_as_many_times_as_the_depth_says() {
        List<Long> seeds = new ArrayList<>();
        SearchDepth.eachSeed(SEED, 4, seeds::add);
        assertEquals(4, seeds.size());
        assertEquals(4, new HashSet<>(seeds).size());
        System.setProperty(SearchDepth.PROPERTY, "5");
        seeds.clear();
        SearchDepth.eachSeed(SEED, 4, seeds::add);
        assertEquals(20, seeds.size());
    }

    @Test
    void a_named_seed_is_replayed_once() {
        System.setProperty(SearchDepth.PROPERTY, "5");
        System.setProperty(SEED, "-42");
        List<Long> seeds = new ArrayList<>();
        SearchDepth.eachSeed(SEED, 4, seeds::add);
        assertEquals(List.of(-42L), seeds);
        System.setProperty(SEED, "forty-two");
        assertEquals("volpex.testsupport.test.seed must be a long: \"forty-two\"", assertThrows(
                IllegalArgumentException.class, () -> SearchDepth.eachSeed(SEED, 1, seed -> { })).getMessage());
    }

    @Test
    void a_failure_names_its_seed_and_how_to_replay_it() {
        IllegalStateException cause = new IllegalStateException("boom");
        long[] failing = new long[1];
        AssertionError e = assertThrows(AssertionError.class, () -> SearchDepth.eachSeed(SEED, 3, seed -> {
            failing[0] = seed;
            throw cause;
        }));
        assertSame(cause, e.getCause());
        assertTrue(e.getMessage().startsWith("seed " + failing[0] + " (round 1 of 3); replay with -D" + SEED + "="
                + failing[0] + ": java.lang.IllegalStateException: boom"), e.getMessage());
        System.setProperty(SEED, "7");
        e = assertThrows(AssertionError.class, () -> SearchDepth.eachSeed(SEED, 3, seed -> {
            throw new AssertionError("expected 1");
        }));
        assertEquals("seed 7; replay with -D" + SEED + "=7: java.lang.AssertionError: expected 1", e.getMessage());
        // Another error keeps its type and carries the seed as a suppressed exception.
        StackOverflowError overflow = assertThrows(StackOverflowError.class, () -> SearchDepth.eachSeed(SEED, 3,
                seed -> {
                    throw new StackOverflowError("deep");
                }));
        assertEquals(1, overflow.getSuppressed().length);
        assertEquals("seed 7; replay with -D" + SEED + "=7", overflow.getSuppressed()[0].getMessage());
    }

    @Test
    void a_null_check_or_seed_property_is_refused_before_anything_runs() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> SearchDepth.eachSeed(SEED, 1, null));
        assertEquals("check", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> SearchDepth.eachSeed(null, 1, seed -> { }));
        assertEquals("seedProperty", e.getMessage());
    }
}
