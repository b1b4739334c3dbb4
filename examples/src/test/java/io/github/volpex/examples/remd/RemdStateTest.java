package io.github.volpex.examples.remd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RemdStateTest {

    @Property(tries = 50)
    void a_chain_restored_from_its_bytes_follows_the_same_trajectory_bit_for_bit(
            @ForAll @IntRange(min = 2, max = 30) int beads, @ForAll long seed) {
        PolymerChain original = PolymerChain.straight(beads);
        original.sweep(5, 300.0, 0.6, new SplittableRandom(seed));
        PolymerChain copy = PolymerChain.fromBytes(original.toBytes());
        assertEquals(original, copy);
        original.sweep(5, 310.0, 0.6, new SplittableRandom(seed + 1));
        copy.sweep(5, 310.0, 0.6, new SplittableRandom(seed + 1));
        assertEquals(original, copy);
        assertEquals(Double.doubleToRawLongBits(original.energy()), Double.doubleToRawLongBits(copy.energy()));
    }

    @Test
    void sampling_collapses_the_chain_and_lowers_its_energy_at_room_temperature() {
        PolymerChain chain = PolymerChain.straight(20);
        double before = chain.energy();
        double extent = chain.radiusOfGyration();
        int accepted = chain.sweep(20_000, 300.0, 0.6, new SplittableRandom(1));
        assertTrue(accepted > 0 && accepted < 20_000 * 20, "accepted " + accepted);
        assertTrue(chain.energy() < before - 20, before + " -> " + chain.energy());
        assertTrue(chain.radiusOfGyration() < extent / 2, extent + " -> " + chain.radiusOfGyration());
        assertNotEquals(PolymerChain.straight(20), chain);
    }

    @Test
    void a_state_round_trips_with_its_history() {
        RemdSetup setup = RemdSetup.kannaLadder(3, 10, 5);
        RemdState state = RemdState.initial(setup, 0);
        state.rung = 3;
        state.completedSteps = 2;
        state.requestNumber = 41;
        state.history.add(new int[] {1, 0, 2, 3, 4, 5, 6, 7});
        state.history.add(new int[] {1, 0, 3, 2, 4, 5, 7, 6});
        RemdState copy = RemdState.fromBytes(state.toBytes());
        assertEquals(3, copy.rung);
        assertEquals(2, copy.completedSteps());
        assertEquals(41, copy.requestNumber());
        assertEquals(state.chain, copy.chain);
        assertEquals(2, copy.history.size());
        assertArrayEquals(state.history.get(1), copy.history.get(1));
        assertArrayEquals(state.toBytes(), copy.toBytes());
    }

    @Test
    void damaged_checkpoints_are_refused() {
        byte[] bytes = RemdState.initial(RemdSetup.kannaLadder(3, 10, 5), 2).toBytes();
        assertThrows(IllegalArgumentException.class, () -> RemdState.fromBytes(Arrays.copyOf(bytes, bytes.length - 1)));
        assertThrows(IllegalArgumentException.class, () -> RemdState.fromBytes(Arrays.copyOf(bytes, bytes.length + 1)));
        bytes[0] ^= 1;
        assertThrows(IllegalArgumentException.class, () -> RemdState.fromBytes(bytes));
        assertThrows(IllegalArgumentException.class, () -> PolymerChain.fromBytes(new byte[3]));
    }
}
