package io.github.volpex.checkpoint.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** What the in-memory repository adds to the repository contract (which the testkit runs against it). */
class InMemoryRepositoryTest {

    @Test
    void rejects_bad_ids() {
        assertEquals("repository id must be 1 to 255 bytes of UTF-8: \"\" has 0",
                assertThrows(IllegalArgumentException.class, () -> FragmentRepository.inMemory("")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> FragmentRepository.inMemory("é".repeat(128)));
        assertThrows(NullPointerException.class, () -> FragmentRepository.inMemory(null));
    }
}
