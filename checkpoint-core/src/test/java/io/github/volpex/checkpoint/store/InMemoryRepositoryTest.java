package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class InMemoryRepositoryTest extends FragmentRepositoryContract {

    @Override
    FragmentRepository newRepository(String id) {
        return FragmentRepository.inMemory(id);
    }

    @Test
    void rejects_bad_ids() {
        assertEquals("repository id must be 1 to 255 bytes of UTF-8: \"\" has 0",
                assertThrows(IllegalArgumentException.class, () -> FragmentRepository.inMemory("")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> FragmentRepository.inMemory("é".repeat(128)));
        assertThrows(NullPointerException.class, () -> FragmentRepository.inMemory(null));
    }
}
